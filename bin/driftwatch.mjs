#!/usr/bin/env -S MALLOC_MMAP_THRESHOLD_=131072 node
// The driftwatch command: runs the compiled command line, compiling it first
// when its sources changed (scripts/build-cli.mjs), so the checkout needs no
// separate compile step.
//
// MALLOC_MMAP_THRESHOLD_ (glibc, read when the process starts): blocks of
// 128 KiB or more are always mapped on their own and given back when freed.
// Left to itself, glibc raises that threshold to the largest block freed so far
// (a large answer, a long query result) and serves such blocks from its main
// heap, which fragments and never shrinks. Started as `node bin/driftwatch.mjs`,
// set it yourself.
import { cliEntry } from "../scripts/build-cli.mjs";

await import(await cliEntry());
