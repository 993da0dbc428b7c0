/**
 * `npm run fuzz -- --seconds N --seed S [--out DIR]`: the long fuzz run over every dialect
 * (the suite runs three seconds of it). Prints what was checked, measures the heap on large
 * inputs, and writes each failure's minimised input to DIR (default `fuzz-failures/`) as
 * `seed-S-input-I.sse`, to become a regression test. Exits 1 on any failure.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateStreams } from '../src-shared/testing/fuzz-streams';
import { seededRandom } from '../src-shared/sse/rechunk';
import { concatBytes } from '../src-shared/bytes/held-bytes';
import { MAX_RETAINED_PER_INPUT_BYTE, fixtureSeeds, measureHeap, runFuzz } from '../src-main/testing/fuzz-runner';
import { builtInFuzzGrammars } from '../src-main/testing/fuzz-grammars';

const MIB = 1024 * 1024;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '60' },
      seed: { type: 'string', default: String(Date.now() % 1_000_000) },
      out: { type: 'string', default: 'fuzz-failures' },
    },
  });
  const seconds = Number(values.seconds);
  const seed = Number(values.seed);
  if (!Number.isFinite(seconds) || !Number.isInteger(seed)) {
    console.error('usage: npm run fuzz -- --seconds N --seed S [--out DIR]');
    return 2;
  }
  const seeds = fixtureSeeds();
  const grammars = builtInFuzzGrammars();
  console.log(
    `fuzzing for ${seconds} s with seed ${seed}: ${seeds.length} real streams (upstream and provider fixtures), dialects ${[...grammars.keys()].join(', ')}`,
  );
  const report = runFuzz({ seed, seeds, limits: { hugeLineBytes: MIB }, grammars }, seconds);
  console.log(
    `${report.inputs} inputs (${Object.entries(report.byDialect)
      .map(([d, n]) => `${d} ${n}`)
      .join(
        ', ',
      )}), ${(report.bytes / MIB).toFixed(1)} MiB, ${report.seconds.toFixed(1)} s, ${report.failures.length} failures`,
  );
  for (const f of report.failures) {
    mkdirSync(values.out, { recursive: true });
    const file = join(values.out, `seed-${seed}-input-${f.index}.sse`);
    writeFileSync(file, f.minimised);
    console.log(
      `  input ${f.index} (${f.recipe.join(' + ')}): ${f.failure.kind}: ${f.failure.detail}; minimised to ${f.minimised.length} bytes in ${file}`,
    );
  }

  const random = seededRandom(seed);
  const large = [
    ...seeds
      .filter(
        (s) => s.name === 'example_1.raw.sse' || s.name === 'multi_agent.json.sse' || s.name === 'example_1.xml.sse',
      )
      .map((s) => ({
        name: `${s.name} × ${Math.ceil((32 * MIB) / s.bytes.length)}`,
        bytes: concatBytes(Array.from({ length: Math.ceil((32 * MIB) / s.bytes.length) }, () => s.bytes)),
      })),
    ...[...grammars].map(([id, dialect]) => ({
      name: `generated ${id}`,
      bytes: generateStreams(dialect, random, 16 * MIB),
    })),
  ];
  let over = 0;
  for (const { name, bytes } of large) {
    const use = await measureHeap(bytes);
    const ratio = use.retainedBytes / use.inputBytes;
    if (ratio >= MAX_RETAINED_PER_INPUT_BYTE) over++;
    console.log(
      `heap: ${name}: ${(use.inputBytes / MIB).toFixed(1)} MiB in, ${(use.retainedBytes / MIB).toFixed(1)} MiB held by the result (${ratio.toFixed(1)}×), ${(use.leakedBytes / MIB).toFixed(2)} MiB after dropping it`,
    );
  }
  return report.failures.length > 0 || over > 0 ? 1 : 0;
}

process.exitCode = await main();
