import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import { ObjectId, type MongoClient } from 'mongodb';
import { CommandCounter } from './command-counter.js';
import { MingoDatabaseDouble } from './mingo-database-double.js';

describe('CommandCounter', () => {
  it('counts a real client’s commandStarted events, leaving out connection housekeeping, until detached', () => {
    const client = new EventEmitter();
    const counter = CommandCounter.onClient(client as unknown as MongoClient);
    const started = (commandName: string, command: Record<string, unknown>) => client.emit('commandStarted', { commandName, databaseName: 'cms', command });
    started('hello', { hello: 1 });
    started('saslStart', { saslStart: 1 });
    started('find', { find: 'api_keys', filter: { hash: 'h' } });
    started('findAndModify', { findAndModify: 'reactions', query: {} });
    started('getMore', { getMore: 12, collection: 'forms' });
    started('endSessions', { endSessions: [] });
    expect(counter.documents().map((command) => Object.keys(command)[0])).to.deep.equal(['find', 'findAndModify', 'getMore']);
    expect(counter.take()).to.deep.equal(['find api_keys', 'findAndModify reactions', 'getMore']);
    expect(counter.take()).to.deep.equal([]);
    counter.detach();
    started('find', { find: 'forms' });
    expect(counter.commands()).to.deep.equal([]);
    expect(client.listenerCount('commandStarted')).to.equal(0);
  });

  it('counts the double’s commands under the driver’s names, a cursor once when it is read', async () => {
    const db = new MingoDatabaseDouble();
    const counter = CommandCounter.onDouble(db);
    const forms = db.collection('forms');
    const [one, two] = [new ObjectId(), new ObjectId()];
    await forms.insertMany([{ _id: one }, { _id: two }]);
    const cursor = forms.find({ _id: { $in: [one, two] } });
    expect(counter.commands()).to.deep.equal(['insert forms']);
    await cursor.toArray();
    await forms.findOneAndUpdate({ _id: one }, { $set: { a: 1 } });
    await forms.updateMany({ _id: two }, { $set: { a: 2 } });
    await forms.aggregate([{ $match: { _id: one } }]).toArray();
    await db.command({ ping: 1 });
    expect(counter.take()).to.deep.equal(['aggregate forms', 'find forms', 'findAndModify forms', 'insert forms', 'update forms']);
  });
});
