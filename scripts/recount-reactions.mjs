#!/usr/bin/env node
// Maintenance: recounts every article's and comment's reaction totals from the reaction
// records, reports any drift, and with --repair fixes it (by the same atomic increment the
// service uses, so run it in a quiet period for an exact result).
//
//   npm run build && MONGODB_URI=mongodb://… node scripts/recount-reactions.mjs [--repair] [--tenant <id>]
//
// Exit codes: 0 no drift (or all repaired), 1 drift found and not repaired, 2 usage/configuration.
//
// TODO(adapter-mongo): the recount needs the persistent store. Until the MongoDB repositories are
// bound in packages/server (build-container.ts storageModuleFor), this script stops with
// "Cannot open the store: … no MongoDB adapter yet"; nothing here has to change once they are.
import { runRecountReactions } from '@cms/server';

const out = (line) => process.stdout.write(`${line}\n`);
process.exitCode = await runRecountReactions(process.env, process.argv.slice(2), out);
