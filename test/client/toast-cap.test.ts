import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_TOASTS, toast, toasts } from '../../client/components/ui/toast.js';

test('at most 3 toasts at once: older ones leave early, but an error outstays older good news', () => {
  assert.equal(MAX_TOASTS, 3);
  toasts.value = [];
  for (let i = 1; i <= 7; i++) toast({ title: 'Upload successful!', description: `p${i}.jpg has been uploaded`, variant: 'success' });
  assert.deepEqual(toasts.value.map((t) => t.description), ['p5.jpg has been uploaded', 'p6.jpg has been uploaded', 'p7.jpg has been uploaded']);

  toast({ title: 'Upload failed', description: 'big.mov', variant: 'destructive' });
  for (let i = 8; i <= 10; i++) toast({ title: 'Upload successful!', description: `p${i}.jpg has been uploaded`, variant: 'success' });
  assert.deepEqual(
    toasts.value.map((t) => t.title),
    ['Upload failed', 'Upload successful!', 'Upload successful!'],
    'the error stays while newer successes replace each other',
  );
  assert.equal(toasts.value.at(-1)!.description, 'p10.jpg has been uploaded');
  toasts.value = [];
});
