import Copy from 'lucide-react/icons/copy';
import Download from 'lucide-react/icons/download';
import { toast } from '../../ui/toast';
import { t } from '../t';

/** The recovery codes, shown this once: copy, download, then "I have saved them". */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join('\n') + '\n';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast({ title: t('admin.security.codes_copied'), variant: 'success' });
    } catch {
      toast({ title: t('admin.security.codes_copy_failed'), variant: 'destructive' });
    }
  };
  const download = () => {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    a.download = 'recovery-codes.txt';
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  return (
    <div className="recovery-codes" role="region" aria-labelledby="sec-codes-title">
      <h3 id="sec-codes-title">{t('admin.security.codes_title')}</h3>
      <p>{t('admin.security.codes_intro')}</p>
      <ol className="recovery-code-list" data-testid="recovery-codes" translate="no">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <div className="security-actions">
        <button type="button" className="btn btn-outline" onClick={() => void copy()}>
          <Copy size={16} aria-hidden="true" />
          {t('admin.security.codes_copy')}
        </button>
        <button type="button" className="btn btn-outline" onClick={download}>
          <Download size={16} aria-hidden="true" />
          {t('admin.security.codes_download')}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          {t('admin.security.codes_saved')}
        </button>
      </div>
    </div>
  );
}
