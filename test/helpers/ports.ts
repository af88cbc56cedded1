/**
 * A port for a server a test starts as a child process. It lies below Linux's ephemeral range
 * (32768-60999), where outgoing connections (the browser's, fetch's) take their local ports, so
 * only another test's server can hold it; ServerProcess tries another one on EADDRINUSE.
 */
export function serverPort(): number {
  return 20000 + Math.floor(Math.random() * 12000);
}
