#!/usr/bin/env node
/**
 * The `cms-admin` executable: runs the admin command line (run-admin.ts) on the MongoDB named by
 * MONGODB_URI, ensuring the indexes first so it is safe on a database the service never started on,
 * and removing retired fields as the service's start-up does (decision 0789).
 */
import { MongoStorage } from '@cms/adapter-mongo';
import { runAdmin, type AdminStorage } from './run-admin.js';

async function openMongo({ uri, database }: { uri: string; database: string }): Promise<AdminStorage> {
  const storage = await MongoStorage.connect(uri, database, { appName: 'cms-admin' });
  try {
    await storage.ensureIndexes();
    await storage.removeRetiredFields();
  } catch (error) {
    await storage.close();
    throw error;
  }
  const { tenants, apiKeys, aiUsage } = storage.repositories;
  return { tenants, apiKeys, aiUsage, close: () => storage.close() };
}

process.exitCode = await runAdmin(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr }, openMongo);
