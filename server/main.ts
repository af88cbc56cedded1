import os from 'node:os';
import { ConfigError, describeConfig, loadConfig } from './config.js';
import { log, setLogLevel } from './log.js';
import { startServer } from './server.js';
import { threadPoolAdvice } from './threadpool.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env, { cores: os.availableParallelism() });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(err.message + '\n');
      process.exit(2);
    }
    throw err;
  }
  setLogLevel(config.logLevel);
  log.info('Starting with settings', describeConfig(config));
  const advice = threadPoolAdvice();
  if (advice) log.warn(advice);
  const running = await startServer(config);
  log.info(`Wedding site listening on ${running.url} (all interfaces: ${config.host})`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received: finishing requests and closing the database`);
    running.close().then(
      () => process.exit(0),
      (err) => {
        log.error('Error while shutting down', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  log.error('The server could not start', err);
  process.exit(1);
});
