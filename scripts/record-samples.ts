// Records the sample recordings of resources/samples from the embedded demo agent
// (`npm run samples`), with the CLI's own `record` and `answer` commands: the samples are
// what a user would record, and stay in step with the demo agent's scenarios.
//
// Each file is recorded from a fresh demo agent with the same seed, so its agent UUIDs do not
// depend on the other samples (and the XML and JSON runs of a pair share theirs). The demo
// agent listens on a free port; the recordings name it as 127.0.0.1:8787, the port the
// README runs `stream-inspector demo-agent` on, so a paused sample can be answered there.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../src-main/cli/main';
import { memoryIo } from '../src-main/cli/test-io';
import { startDemoAgent } from '../src-main/services/demo-agent/index';
import { scenarioById } from '../src-main/services/demo-agent/scenarios/catalogue';
import { SAMPLES, type SampleFile } from '../src-main/services/samples/catalogue';
import { PROJECT_SAMPLES_DIR } from '../src-main/services/samples/sample-commands';

export const SAMPLE_SEED = 'samples';
export const SAMPLE_ORIGIN = 'http://127.0.0.1:8787';

/** Runs a CLI command in-process; a missing output file is a failure whatever the exit code. */
async function cli(args: string[], cwd: string, output: string): Promise<void> {
  const io = { ...memoryIo(), cwd };
  const code = await main(args, io);
  try {
    await readFile(join(cwd, output));
  } catch {
    throw new Error(`stream-inspector ${args[0] ?? ''} exited ${code} without writing ${output}:\n${io.err()}`);
  }
}

async function recordFile(sample: SampleFile, work: string, outDir: string): Promise<void> {
  const scenario = scenarioById(sample.scenario);
  if (!scenario) throw new Error(`The demo agent has no scenario '${sample.scenario}'`);
  const agent = await startDemoAgent({ pace: 'fast', seed: SAMPLE_SEED });
  try {
    const body = JSON.stringify({ user_prompt: scenario.samplePrompt, scenario: scenario.id, format: sample.format });
    const recorded = `${sample.file}.run`;
    await cli(
      ['record', `${agent.url}/agent/run`, '-H', 'Content-Type: application/json', '-d', body, '-o', recorded],
      work,
      recorded,
    );
    let result = recorded;
    if (sample.answer) {
      result = `${sample.file}.answered`;
      await cli(['answer', recorded, '--yes', '-o', result], work, result);
    }
    const text = await readFile(join(work, result), 'utf8');
    await writeFile(join(outDir, sample.file), text.replaceAll(agent.url, SAMPLE_ORIGIN));
  } finally {
    await agent.close();
  }
}

/** Records every sample file into `outDir`; returns the files written. */
export async function recordSamples(outDir: string): Promise<string[]> {
  const work = await mkdtemp(join(tmpdir(), 'inspector-samples-'));
  const written: string[] = [];
  try {
    for (const sample of SAMPLES) {
      for (const file of sample.files) {
        await recordFile(file, work, outDir);
        written.push(join(outDir, file.file));
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const written = await recordSamples(PROJECT_SAMPLES_DIR);
  process.stdout.write(`Samples recorded from the demo agent:\n${written.map((f) => `  ${f}`).join('\n')}\n`);
}
