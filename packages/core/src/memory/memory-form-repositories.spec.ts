import { formRepositoryContract, submissionRepositoryContract } from '../testing/index.js';
import { MemoryFormRepository } from './memory-form.repository.js';
import { MemorySubmissionRepository } from './memory-submission.repository.js';

formRepositoryContract('memory', async () => ({ repository: new MemoryFormRepository() }));
submissionRepositoryContract('memory', async () => ({ repository: new MemorySubmissionRepository() }));
