import fs from 'node:fs';

/**
 * Writes a file's data to the disk now (fdatasync) instead of leaving it to the kernel's
 * write-back. Left alone, the kernel gathers what an upload rush writes (about 2 GB here before
 * it starts: a tenth of the free memory, or 30 s of data) and then writes it in one burst; while
 * the disk works through that, every read and write anyone else asks of it waits, the
 * database's first: the server saw waits of up to 6 s. Synced as they arrive, uploads keep the
 * disk's queue short, and an upload the server has answered for survives a power cut.
 */
export function writeBackFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fs.fdatasync(fd, (e) => (e ? reject(e) : resolve())));
}
