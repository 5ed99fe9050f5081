// A standalone embedded PostgreSQL for running the suite against an
// "external" DATABASE_URL: `start DIR` prints the URL, `stop DIR` stops it.
import { startEmbeddedPostgres } from "@/lib/db/embedded";

const [cmd, dir] = process.argv.slice(2);
if (!dir || (cmd !== "start" && cmd !== "stop")) {
  console.error("usage: scratch-postgres.ts start|stop DIR");
  process.exit(2);
}
const pg = await startEmbeddedPostgres(dir, { settings: { fsync: "off", synchronous_commit: "off" } });
if (cmd === "stop") await pg.stop();
else console.log(pg.url);
process.exit(0);
