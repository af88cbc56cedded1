import fs from 'node:fs';

/**
 * Writes a file's data to the disk now (fdatasync) instead of leaving it to the kernel's
 * write-back. Left alone, the kernel gathers what an upload rush writes (here, about 2 GB
 * before it starts: a tenth of the free memory, or 30 s of data) and then writes it in one
 * burst; while the disk works through that, every read and write anyone else asks of it waits,
 * the database's first: the server saw waits of up to 6 s. Written back as it arrives, the
 * disk's queue stays short, and a file the server has answered for survives a power cut.
 */
export function writeBackFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fs.fdatasync(fd, (e) => (e ? reject(e) : resolve())));
}

/** writeBackFd for a file already written and closed (sharp's and ffmpeg's outputs). */
export async function writeBack(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}
