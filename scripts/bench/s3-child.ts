import { spawn, type ChildProcess } from 'node:child_process';
import { S3Client } from '@aws-sdk/client-s3';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** s3rver in its own process (scripts/bench/s3-server.ts), its objects in `dir`. */
export class S3Child {
  child!: ChildProcess;
  endpoint = '';

  constructor(
    readonly dir: string,
    readonly bucket: string,
  ) {}

  async start(): Promise<this> {
    fs.mkdirSync(this.dir, { recursive: true });
    this.child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/bench/s3-server.ts'), this.dir, this.bucket], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_NO_WARNINGS: '1' },
    });
    this.endpoint = await new Promise<string>((resolve, reject) => {
      let out = '';
      this.child.stdout!.on('data', (d) => {
        out += d;
        const line = out.split('\n')[0];
        if (out.includes('\n')) resolve((JSON.parse(line) as { endpoint: string }).endpoint);
      });
      this.child.once('exit', (code) => reject(new Error(`s3rver exited (${code})`)));
    });
    return this;
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return { S3_ENDPOINT: this.endpoint, S3_BUCKET: this.bucket, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'bench-secret', ...extra };
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill('SIGTERM');
    });
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The benchmarks' own S3 client for s3rver (which checks no key), set as the site sets its own. */
export function benchS3Client(endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'bench' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
