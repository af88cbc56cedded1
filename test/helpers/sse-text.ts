/**
 * An open GET /api/events read as plain text: `waitFor` resolves with the first event of a type
 * (its data parsed) that arrives after the previous match.
 */
export async function watchEvents(base: string) {
  const ac = new AbortController();
  const res = await fetch(`${base}/api/events`, { signal: ac.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  let consumed = 0;
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += value;
    }
  })();
  const waitFor = async (type: string, ms = 5000): Promise<any> => {
    const deadline = Date.now() + ms;
    const pattern = new RegExp(`\\nevent: ${type}\\ndata: ([^\\n]*)\\n`, 'g');
    while (Date.now() < deadline) {
      pattern.lastIndex = consumed;
      const m = pattern.exec(text);
      if (m) {
        consumed = pattern.lastIndex;
        return JSON.parse(m[1]);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no ${type} event within ${ms} ms; got: ${text.slice(consumed)}`);
  };
  const close = async () => {
    ac.abort();
    await pump;
  };
  return { waitFor, close, text: () => text };
}
