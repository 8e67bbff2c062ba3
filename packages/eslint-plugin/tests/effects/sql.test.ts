import { describe, expect, it } from 'vitest';

import { classifySql } from '../../src/effects/index.js';

// One row per statement shape: the text (a template's static parts are split on `${}`), the kinds
// of its statements in order, and for some the summary the messages show.
interface Row {
  readonly sql: string;
  readonly kinds: readonly string[] | undefined;
  readonly summary?: string;
}

/** `${}` in a row's text stands for a template hole. */
const classify = (sql: string) => classifySql(sql.split('${}'));

const rows: Record<string, readonly Row[]> = {
  reads: [
    { sql: 'SELECT * FROM customers WHERE id = $1', kinds: ['read'], summary: 'SELECT … FROM customers' },
    { sql: 'select name, email from "Users" where id = ?', kinds: ['read'], summary: 'SELECT … FROM Users' },
    { sql: 'SELECT 1', kinds: ['read'] },
    { sql: 'SELECT count(*) FROM orders WHERE status = ${}', kinds: ['read'] },
    { sql: 'SELECT * FROM accounts WHERE id = $1 FOR UPDATE', kinds: ['read'] },
    { sql: 'WITH recent AS (SELECT * FROM orders) SELECT * FROM recent', kinds: ['read'] },
    { sql: 'EXPLAIN SELECT * FROM t', kinds: ['read'] },
    { sql: 'SHOW TABLES', kinds: ['read'] },
    { sql: 'PRAGMA table_info(users)', kinds: ['read'] },
    { sql: '  -- the active ones\n  SELECT id FROM users /* not deleted */ WHERE deleted_at IS NULL', kinds: ['read'] },
  ],
  'absolute writes': [
    { sql: 'UPDATE orders SET status = $1 WHERE id = $2', kinds: ['absolute'], summary: 'UPDATE orders SET status = $1' },
    { sql: "UPDATE orders SET status = 'shipped', updated_at = now() WHERE id = ${}", kinds: ['absolute'] },
    { sql: 'UPDATE t SET total = price * quantity WHERE id = :id', kinds: ['absolute'] },
    { sql: 'UPDATE t SET seen_at = COALESCE(seen_at, now()) WHERE id = $1', kinds: ['absolute'] },
    { sql: 'UPDATE t SET high = GREATEST(high, $1) WHERE id = $2', kinds: ['absolute'] },
    { sql: 'UPDATE users SET points = ${} WHERE id = ${}', kinds: ['absolute'] },
    { sql: 'DELETE FROM sessions WHERE user_id = $1', kinds: ['absolute'], summary: 'DELETE FROM sessions' },
    { sql: 'INSERT INTO users (id, email) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', kinds: ['absolute'] },
    { sql: 'INSERT INTO users (id, email) VALUES ($1, $2) ON CONFLICT ON CONSTRAINT users_pkey DO NOTHING', kinds: ['absolute'] },
    {
      sql: 'INSERT INTO settings (user_id, theme) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET theme = EXCLUDED.theme',
      kinds: ['absolute'],
    },
    { sql: 'CREATE TABLE IF NOT EXISTS t (id int)', kinds: ['absolute'] },
    { sql: 'TRUNCATE audit_log', kinds: ['absolute'] },
    { sql: 'PRAGMA journal_mode = WAL', kinds: ['absolute'] },
  ],
  creates: [
    { sql: 'INSERT INTO comments (ticket_id, body) VALUES ($1, $2) RETURNING id', kinds: ['create'], summary: 'INSERT INTO comments' },
    { sql: 'insert into `events` (name) values (?)', kinds: ['create'], summary: 'insert into `events`' },
    { sql: 'INSERT INTO orders SELECT * FROM cart WHERE user_id = $1', kinds: ['create'] },
    { sql: 'INSERT INTO ${} (a) VALUES (${})', kinds: ['create'] },
    { sql: 'COPY t FROM STDIN', kinds: ['create'] },
    { sql: "NOTIFY orders, 'new'", kinds: ['create'] },
  ],
  relative: [
    {
      sql: 'UPDATE customers SET points = points + $1 WHERE id = $2',
      kinds: ['relative'],
      summary: 'UPDATE customers SET points = points + $1',
    },
    { sql: 'UPDATE accounts SET balance = balance - ${} WHERE id = ${}', kinds: ['relative'] },
    { sql: 'UPDATE t SET n = COALESCE(n, 0) + 1 WHERE id = $1', kinds: ['relative'] },
    { sql: 'UPDATE t SET t.hits = t.hits + 1 WHERE id = 3', kinds: ['relative'] },
    { sql: 'UPDATE posts SET tags = array_append(tags, $1) WHERE id = $2', kinds: ['relative'] },
    { sql: "UPDATE subs SET expires_at = expires_at + interval '30 days' WHERE id = $1", kinds: ['relative'] },
    {
      sql: 'INSERT INTO counters (k, n) VALUES ($1, 1) ON CONFLICT (k) DO UPDATE SET n = counters.n + 1',
      kinds: ['relative'],
      summary: 'INSERT INTO counters … n = counters.n + 1',
    },
    { sql: 'INSERT INTO counters (k, n) VALUES (?, 1) ON DUPLICATE KEY UPDATE n = n + VALUES(n)', kinds: ['relative'] },
    { sql: 'MERGE INTO stock s USING incoming i ON s.sku = i.sku WHEN MATCHED THEN UPDATE SET qty = s.qty + i.qty', kinds: ['relative'] },
  ],
  'relative, but guarded by its WHERE': [
    { sql: 'UPDATE docs SET body = $1, version = version + 1 WHERE id = $2 AND version = $3', kinds: ['absolute'] },
    { sql: "UPDATE orders SET status = 'paid', paid = paid + $1 WHERE id = $2 AND status = 'pending'", kinds: ['absolute'] },
    { sql: 'UPDATE rewards SET applied = true, points = points + 10 WHERE id = $1 AND NOT applied', kinds: ['absolute'] },
    { sql: 'UPDATE jobs SET done_at = now(), tries = tries + 1 WHERE id = $1 AND done_at IS NULL', kinds: ['absolute'] },
  ],
  'writes whose repeat is not visible': [
    { sql: 'INSERT INTO users (email) VALUES ($1) ON CONFLICT DO NOTHING', kinds: ['write'] },
    { sql: 'INSERT OR IGNORE INTO tags (name) VALUES (?)', kinds: ['write'] },
    { sql: 'INSERT OR REPLACE INTO kv (k, v) VALUES (?, ?)', kinds: ['write'] },
    { sql: 'REPLACE INTO kv (k, v) VALUES (?, ?)', kinds: ['write'] },
    { sql: 'INSERT INTO kv (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = VALUES(v)', kinds: ['write'] },
    { sql: 'UPDATE users SET ${} WHERE id = ${}', kinds: ['write'] },
    { sql: 'UPDATE docs SET meta = meta || $1 WHERE id = $2', kinds: ['write'] },
  ],
  'several statements': [
    { sql: 'BEGIN; UPDATE a SET n = n + 1 WHERE id = 1; INSERT INTO log (x) VALUES (1); COMMIT', kinds: ['relative', 'create'] },
    { sql: 'WITH moved AS (DELETE FROM queue WHERE id = $1 RETURNING *) INSERT INTO done SELECT * FROM moved', kinds: ['absolute', 'create'] },
    { sql: 'EXPLAIN ANALYZE UPDATE t SET n = n + 1', kinds: ['relative'] },
    { sql: 'BEGIN TRANSACTION READ ONLY', kinds: [] },
    { sql: 'ROLLBACK', kinds: [] },
  ],
  'what it cannot tell': [
    { sql: 'CALL refresh_points($1)', kinds: ['unknown'] },
    { sql: 'EXEC sp_add_points @id = 1', kinds: ['unknown'] },
  ],
  'not SQL': [
    { sql: '${}', kinds: undefined },
    { sql: '', kinds: undefined },
    { sql: 'delete this comment', kinds: undefined },
    { sql: 'Update the record', kinds: undefined },
    { sql: 'select a file', kinds: undefined },
    { sql: 'hello world', kinds: undefined },
    { sql: "SELECT 'a; DROP TABLE x' FROM t", kinds: ['read'] },
  ],
};

describe('classifySql', () => {
  for (const [group, cases] of Object.entries(rows)) {
    describe(group, () => {
      for (const row of cases) {
        it(row.sql.replace(/\s+/g, ' ').trim() || '(empty)', () => {
          const statements = classify(row.sql);
          expect(statements?.map((statement) => statement.kind)).toEqual(row.kinds);
          if (row.summary !== undefined) expect(statements?.[0]?.summary).toBe(row.summary);
        });
      }
    });
  }

  it('names the column of a relative change its WHERE guards, on the absolute statement (new-user trial 6: reasons called it absolute)', () => {
    const guarded = rows['relative, but guarded by its WHERE']?.map((row) => classify(row.sql)?.[0]?.guarded);
    expect(guarded).toEqual(['version', 'paid', 'points', 'tries']);
    expect(classify('UPDATE orders SET status = $1 WHERE id = $2')?.[0]?.guarded).toBeUndefined();
    expect(classify('UPDATE customers SET points = points + $1 WHERE id = $2')?.[0]?.guarded).toBeUndefined();
  });

  it('names the column a relative statement changes, and how', () => {
    expect(classify('UPDATE customers SET points = points + $1 WHERE id = $2')?.[0]?.change).toEqual({ column: 'points', operator: '+' });
    expect(classify('UPDATE posts SET tags = array_append(tags, $1)')?.[0]?.change).toEqual({ column: 'tags', operator: 'array_append' });
  });

  it('shows a hole by its source text when given', () => {
    const [statement] = classifySql(['UPDATE customers SET points = points + ', ' WHERE id = ', ''], ['${amount}', '${id}']) ?? [];
    expect(statement?.summary).toBe('UPDATE customers SET points = points + ${amount}');
  });

  it('reads a hole inside a string literal as part of the literal', () => {
    expect(classifySql(["SELECT * FROM t WHERE name = '", "' AND x = 1"])?.map((s) => s.kind)).toEqual(['read']);
  });

  it('reads dollar-quoted bodies as strings', () => {
    expect(classifySql(['SELECT $body$ UPDATE t SET n = n + 1 $body$ FROM t'])?.map((s) => s.kind)).toEqual(['read']);
  });
});
