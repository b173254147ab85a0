#!/usr/bin/env node
// Maintenance: recounts every article's and comment's reaction totals from the reaction
// records on the MongoDB named by MONGODB_URI (database from the URI path, else MONGODB_DB, else
// cms), reports any drift, and with --repair fixes it (by the same atomic increment the service
// uses, so run it in a quiet period for an exact result). It reads no other setting.
//
//   npm run build && MONGODB_URI=mongodb://… node scripts/recount-reactions.mjs [--repair] [--tenant <id>]
//
// Exit codes: 0 no drift (or all repaired), 1 drift found and not repaired, 2 could not run
// (usage, no MONGODB_URI, store unreachable or failing).
import { runRecountReactions } from '@cms/server';

const io = { stdout: (line) => process.stdout.write(`${line}\n`), stderr: (line) => process.stderr.write(`${line}\n`) };
process.exitCode = await runRecountReactions(process.env, process.argv.slice(2), io);
