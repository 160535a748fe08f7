// duckdb-sql.mjs DATABASE [-f FILE | -c SQL | -w SQL FILE]...: DuckDB's
// command line for sampler-sql, as Debian has no DuckDB (the engine comes
// from npm's @duckdb/node-api, which `make sql-deps' installs).  Each
// -f FILE runs every statement of FILE; each -c SQL runs SQL and prints
// the result of its last statement as CSV with a header; -w SQL FILE runs
// FILE again and again while SQL's first value is not 0 (a loop in one
// process: starting one costs half a second).  Exit status 1 and the
// engine's message on any error.
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';

function csvField(value) {
    if (value === null || value === undefined)
        return '';
    const text = String(value);
    return /[",\r\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
}

async function main(args) {
    const usage = 'usage: duckdb-sql.mjs DATABASE [-f FILE | -c SQL | -w SQL FILE]...';
    if (args.length < 1)
        throw new Error(usage);
    const instance = await DuckDBInstance.create(args[0]);
    const connection = await instance.connect();
    for (let i = 1; i < args.length; i += 2) {
        if (i + 1 >= args.length)
            throw new Error(usage);
        if (args[i] === '-w' && i + 2 < args.length) {
            const step = readFileSync(args[i + 2], 'utf8');
            while (Number((await connection.runAndReadAll(args[i + 1])).getRows()[0][0]) !== 0)
                await connection.run(step);
            i++;
        } else if (args[i] === '-f') {
            await connection.run(readFileSync(args[i + 1], 'utf8'));
        } else if (args[i] === '-c') {
            const reader = await connection.runAndReadAll(args[i + 1]);
            const out = [reader.columnNames().map(csvField).join(',')];
            for (const row of reader.getRows())
                out.push(row.map(csvField).join(','));
            process.stdout.write(out.join('\n') + '\n');
        } else {
            throw new Error(`unknown option '${args[i]}' (expected -f FILE or -c SQL)`);
        }
    }
    connection.closeSync();
}

main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`duckdb-sql.mjs: ${error.message}\n`);
    process.exit(1);
});
