// package.json's overrides put this in place of @prisma/streams-local, the
// local streams server of `prisma dev`: every published version asks for
// Node 22, and `prisma generate` and Driftwatch's migrations never load it.
throw new Error("@prisma/streams-local is not installed in Driftwatch (see package.json overrides): `prisma dev` is not supported here");
