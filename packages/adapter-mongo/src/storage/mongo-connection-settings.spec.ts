import { expect } from 'chai';
import { MAJORITY_WAIT_MS, maskedMongoUri, mongoConnectionStringProblem, mongoDatabaseNameProblem, mongoWriteConcernProblem, serviceWriteConcern } from './mongo-connection-settings.js';

describe('mongoConnectionStringProblem', () => {
  describe('when the driver accepts the string', () => {
    it('finds no problem, with or without credentials, options, several hosts or SRV', () => {
      for (const uri of [
        'mongodb://127.0.0.1:27017',
        'mongodb://admin:p%40ss@db1,db2:27018/cms_prod?replicaSet=rs0&serverSelectionTimeoutMS=2000',
        'mongodb+srv://admin:pw@cluster0.example.net/cms',
        'mongodb://%2Ftmp%2Fmongodb-27017.sock/cms',
        'mongodb://[::1]:27017,db2/cms',
      ]) {
        expect(mongoConnectionStringProblem(uri), uri).to.equal(undefined);
      }
    });
  });

  describe('when the driver refuses the string', () => {
    const cases: Array<[string, RegExp]> = [
      ['notamongo', /^Invalid scheme, expected connection string to start with "mongodb:\/\/"/],
      ['mongodb://', /^Protocol and host list are required/],
      ['mongodb://admin:hunter2-pw@db.local:abc/cms', /^Unable to parse db\.local:abc with URL$/],
      ['mongodb://db.local/cms?bogusOption=1', /^option bogusoption is not supported$/],
      ['mongodb://db.local/cms?serverSelectionTimeoutMS=soon', /serverSelectionTimeoutMS.*soon/],
      ['mongodb+srv://admin:hunter2-pw@cluster0.example.net:27017/cms', /^mongodb\+srv URI cannot have port number$/],
      // The driver takes these, and fails only when it connects: refused here in our words.
      ['mongodb://admin:hunter2-pw@db1,/cms', /^its host list has an empty entry \(a comma with no host before or after it\)$/],
      ['mongodb://,db1:27018/cms', /^its host list has an empty entry/],
    ];
    for (const [uri, reason] of cases) {
      it(`gives the driver's reason for ${uri}`, () => {
        expect(mongoConnectionStringProblem(uri)).to.match(reason);
      });
    }
  });

  describe('when the string carries secrets', () => {
    it('never quotes the password, even one the driver cannot separate from the host', () => {
      const uris = [
        'mongodb://admin:hunter2-pw@db.local:abc/cms',
        'mongodb://admin:hunter2@pw@db.local/cms',
        'mongodb://admin:hunter2/pw@db.local/cms',
        'mongodb://admin:hunter2-pw@db.local:abc/cms?appName=a@b',
        'admin:hunter2-pw@db.local/cms',
      ];
      for (const uri of uris) {
        const problem = mongoConnectionStringProblem(uri);
        expect(problem, uri).to.be.a('string');
        expect(problem, uri).not.to.contain('hunter2');
      }
    });

    it('says the credentials are malformed when only they keep the string from parsing', () => {
      expect(mongoConnectionStringProblem('mongodb://admin:hunter2/pw@db.local/cms')).to.equal(
        'its user name or password cannot be read (percent-encode any @ : / ? # % in them)',
      );
    });

    it('never quotes the value of an option whose name says password', () => {
      const problem = mongoConnectionStringProblem('mongodb://db.local/cms?proxyPassword=hunter2-pw&proxyUsername=u&proxyPort=x');
      expect(problem).to.be.a('string');
      expect(problem).not.to.contain('hunter2');
    });
  });
});

describe('maskedMongoUri', () => {
  describe('when the string carries a password', () => {
    const cases: Array<[string, string]> = [
      ['mongodb://admin:hunter2@db1,db2/cms?replicaSet=rs0', 'mongodb://admin:****@db1,db2/cms?replicaSet=rs0'],
      ['mongodb+srv://admin:hunter2@cluster0.example.net/cms', 'mongodb+srv://admin:****@cluster0.example.net/cms'],
      ['mongodb://admin:hunter2@pw/x@db.local/cms', 'mongodb://admin:****@db.local/cms'],
      ['admin:hunter2@db.local', 'admin:****@db.local'],
      ['mongodb://admin:hunter2@db.local/cms?appName=a@b', 'mongodb://admin:****@b'],
    ];
    for (const [uri, shown] of cases) {
      it(`masks it to the last @ in ${uri}`, () => {
        expect(maskedMongoUri(uri)).to.equal(shown);
      });
    }
  });

  describe('when an option is a password', () => {
    it('masks its value, whatever the case of its name', () => {
      expect(maskedMongoUri('mongodb://h/cms?tls=true&tlsCertificateKeyFilePassword=hunter2&PROXYPASSWORD=hunter3&proxyUsername=u')).to.equal(
        'mongodb://h/cms?tls=true&tlsCertificateKeyFilePassword=****&PROXYPASSWORD=****&proxyUsername=u',
      );
    });
  });

  describe('when there is nothing secret', () => {
    it('leaves the string alone, a user name included', () => {
      for (const uri of ['mongodb://db.local:27017/cms', 'mongodb://admin@db.local/cms?authSource=admin', 'notamongo']) {
        expect(maskedMongoUri(uri)).to.equal(uri);
      }
    });
  });
});

describe('mongoDatabaseNameProblem', () => {
  describe('when the name is one MongoDB accepts', () => {
    it('finds no problem', () => {
      for (const name of ['cms', 'cms_prod-2', 'é'.repeat(31), 'x'.repeat(63)]) expect(mongoDatabaseNameProblem(name), name).to.equal(undefined);
    });
  });

  describe('when MongoDB would refuse it', () => {
    const cases: Array<[string, string]> = [
      ['', 'is empty'],
      ['x'.repeat(64), 'is 64 bytes long'],
      ['é'.repeat(32), 'is 64 bytes long'],
      ['bad.name', "contains '.'"],
      ['a/b', "contains '/'"],
      ['a\\b', "contains '\\'"],
      ['a"b', `contains '"'`],
      ['a$b', "contains '$'"],
      ['a b', 'contains a space'],
      ['a\0b', 'contains NUL'],
    ];
    for (const [name, problem] of cases) {
      it(`says it ${problem} for ${JSON.stringify(name)}`, () => {
        expect(mongoDatabaseNameProblem(name)).to.equal(problem);
      });
    }
  });
});

describe('serviceWriteConcern', () => {
  it('asks a majority, within MAJORITY_WAIT_MS, when the string names no write concern', () => {
    expect(MAJORITY_WAIT_MS).to.equal(10_000);
    for (const uri of ['mongodb://db.local/cms', 'mongodb://db1,db2/cms?replicaSet=rs0&retryWrites=true', 'mongodb+srv://cluster0.example.net/cms']) {
      expect(serviceWriteConcern(uri), uri).to.deep.equal({ w: 'majority', wtimeoutMS: 10_000 });
    }
  });

  it('keeps what the string names, member by member, and fills in the rest', () => {
    expect(serviceWriteConcern('mongodb://db.local/cms?w=1')).to.deep.equal({ w: 1, wtimeoutMS: 10_000 });
    expect(serviceWriteConcern('mongodb://db.local/cms?w=2&wtimeoutMS=2500')).to.deep.equal({ w: 2, wtimeoutMS: 2500 });
    expect(serviceWriteConcern('mongodb://db.local/cms?journal=true')).to.deep.equal({ w: 'majority', wtimeoutMS: 10_000, journal: true });
    expect(serviceWriteConcern('mongodb://db.local/cms?w=majority&wtimeoutMS=0&journal=false')).to.deep.equal({ w: 'majority', wtimeoutMS: 0, journal: false });
  });
});

describe('mongoWriteConcernProblem', () => {
  it('refuses w=0 and nothing else', () => {
    expect(mongoWriteConcernProblem('mongodb://db.local/cms?w=0')).to.equal('sets w=0 (writes nobody acknowledges)');
    for (const uri of ['mongodb://db.local/cms', 'mongodb://db.local/cms?w=1', 'mongodb://db.local/cms?w=majority&journal=false']) {
      expect(mongoWriteConcernProblem(uri), uri).to.equal(undefined);
    }
  });
});
