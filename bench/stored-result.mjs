// What recording a first call's result costs the runner, in process: the old path (findNonJson's
// check, JSON.stringify for the record, JSON.parse of that text for the caller) beside the new one
// (storedCopy: the check and the caller's copy in one walk, JSON.stringify for the record), on the
// runtime benches' refund result, interleaved in one process, reported as a ratio.
//
//   node bench/stored-result.mjs [--calls 1000000] [--rounds 5]
import { findNonJson } from '@retrysafe/spec';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { median, readFlags } from './lib.mjs';
import { refundOf } from './runtimeShared.mjs';

const flags = readFlags(['calls', 'rounds']);
const calls = Number(flags.calls ?? 1_000_000);
const rounds = Number(flags.rounds ?? 5);
// storedCopy is the runner's own (not exported by the package): read from the built module.
const specDist = dirname(createRequire(import.meta.url).resolve('@retrysafe/spec'));
const { storedCopy } = await import(pathToFileURL(join(specDist, 'fingerprint.js')).href);

const input = (i) => ({ orderId: `o-${i}`, amountCents: 500 + (i % 7) });
const paths = {
  old: (value) => {
    if (findNonJson(value, { allowDates: false }) !== undefined) throw new Error('not JSON');
    return JSON.parse(JSON.stringify(value));
  },
  storedCopy: (value) => {
    const copy = storedCopy(value);
    JSON.stringify(value); // the record's text, as the runner writes it
    return copy;
  },
  bare: (value) => value, // making the result alone
};
const times = Object.fromEntries(Object.keys(paths).map((name) => [name, []]));
let sink = 0;
for (let round = 0; round < rounds; round += 1) {
  for (const [name, path] of round % 2 === 0 ? Object.entries(paths) : Object.entries(paths).reverse()) {
    const started = performance.now();
    for (let i = 0; i < calls; i += 1) sink += path(refundOf(input(i))).amountCents;
    times[name].push(((performance.now() - started) * 1000) / calls);
  }
}
const per = Object.fromEntries(Object.entries(times).map(([name, list]) => [name, median(list) - median(times.bare)]));
console.log(`per result above making it (median of ${rounds} rounds of ${calls}): old ${per.old.toFixed(3)} us, storedCopy ${per.storedCopy.toFixed(3)} us; storedCopy / old = ${(per.storedCopy / per.old).toFixed(2)}${sink === 0 ? '' : ''}`);
