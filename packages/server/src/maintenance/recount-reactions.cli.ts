#!/usr/bin/env node
/**
 * The `cms-recount-reactions` executable: recounts reaction totals on the MongoDB named by
 * MONGODB_URI (recount-reactions.command.ts has the options and exit codes). An executable of the
 * package, so a production install (the container image) has it; `scripts/recount-reactions.mjs`
 * runs the same from a checkout.
 */
import { runRecountReactions } from './recount-reactions.command.js';

const io = { stdout: (line: string) => process.stdout.write(`${line}\n`), stderr: (line: string) => process.stderr.write(`${line}\n`) };
process.exitCode = await runRecountReactions(process.env, process.argv.slice(2), io);
