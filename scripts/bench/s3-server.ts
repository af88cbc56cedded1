// An S3-compatible server (s3rver) in a process of its own for the benchmarks, so its work is not
// counted in the process that measures. Prints its address as one JSON line, then serves until
// killed. Usage: node --import tsx scripts/bench/s3-server.ts DIR BUCKET
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { benchS3Client } from './s3-child.js';

const [dir, bucket] = process.argv.slice(2);
const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
const { port } = await s3.run();
const endpoint = `http://127.0.0.1:${port}`;
const client = benchS3Client(endpoint);
if (bucket) await client.send(new CreateBucketCommand({ Bucket: bucket }));
client.destroy();
process.stdout.write(JSON.stringify({ endpoint }) + '\n');
