#!/usr/bin/env -S MALLOC_MMAP_THRESHOLD_=131072 node
// The driftwatch command: runs the compiled command line, compiling it first
// when its sources changed (scripts/build-cli.mjs), so the checkout needs no
// separate compile step.
//
// MALLOC_MMAP_THRESHOLD_ (glibc, read when the process starts): blocks of
// 128 KiB or more are always mapped on their own and given back when freed.
// Left to itself, glibc raises that threshold to the largest block freed so far
// (a 6 MB answer, a long query result), and from then on serves such blocks
// from its main heap, which fragments and never shrinks: a server's memory
// stayed 200 MB above what it used. Started as `node bin/driftwatch.mjs`, set it
// yourself.
import { cliEntry } from "../scripts/build-cli.mjs";

await import(await cliEntry());
