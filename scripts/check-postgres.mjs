// Exits 0 when the PostgreSQL of PAPERDESK_TEST_PG_URL answers, 1 otherwise (with the reason on stderr).
import pg from 'pg';

const url = process.env.PAPERDESK_TEST_PG_URL;
const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
try {
  await client.connect();
  await client.query('select 1');
  await client.end();
} catch (error) {
  console.error(`PostgreSQL at ${url} did not answer: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
