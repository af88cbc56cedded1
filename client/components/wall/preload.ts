/** Fetches and decodes an image off-screen; rejects on error or after `timeoutMs`. */
export function preloadImage(url: string, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    const timer = setTimeout(() => {
      img.removeAttribute('src'); // cancels the download
      reject(new Error(`Loading ${url} timed out`));
    }, timeoutMs);
    img.decoding = 'async';
    img.src = url;
    img.decode().then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (err) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
