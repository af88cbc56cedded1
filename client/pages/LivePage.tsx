import { useSignals } from '@preact/signals-react/runtime';
import Images from 'lucide-react/icons/images';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { Stats } from '../../common/api-types';
import { EMPTY_STATS, fetchStats } from '../api/guest';
import { Footer } from '../components/Footer';
import { t, withTexts } from '../i18n';
import { GuestNameField } from '../components/guest/GuestNameField';
import { TableNote } from '../components/guest/TableNote';
import { InsightsCard } from '../components/guest/InsightsCard';
import { MyUploads } from '../components/guest/MyUploads';
import { UploadBox } from '../components/guest/UploadBox';
import { CameraEntry } from '../components/camera/CameraEntry';
import { coupleNames, settings } from '../state/settings';
import { finishedCount, startUploadQueue } from '../state/uploads';

// The couple's photo challenges and their texts load only when the couple set some.
const ChallengePicker = lazy(() => withTexts(import('../components/challenges/ChallengePicker')).then((m) => ({ default: m.ChallengePicker })));

export function LivePage() {
  useSignals();
  const [stats, setStats] = useState<Stats>(EMPTY_STATS);
  const finished = finishedCount.value;
  const names = coupleNames(settings.value);

  // Files an earlier visit left unfinished come back and carry on.
  useEffect(startUploadQueue, []);

  // Numbers refresh when the page opens and each time one of this guest's files is done.
  useEffect(() => {
    let live = true;
    void fetchStats().then((s) => live && setStats(s));
    return () => {
      live = false;
    };
  }, [finished]);

  return (
    <div className="page">
      <main className="container live-page">
        <header className="page-header">
          <p className="eyebrow">{names ? t('live.eyebrow', { names }) : t('live.eyebrow_no_names')}</p>
          <h1>{t('live.title')}</h1>
          <p className="lead muted">{t('live.lead')}</p>
        </header>

        <TableNote />
        <GuestNameField />
        {stats.challenges.length > 0 && (
          <Suspense fallback={null}>
            <ChallengePicker challenges={stats.challenges} />
          </Suspense>
        )}
        <CameraEntry />
        <UploadBox />
        <CameraEntry shots />
        <MyUploads />

        <p className="live-gallery-link">
          <Link href="/gallery" className="btn btn-outline">
            <Images aria-hidden="true" size={18} /> {t('app.view_gallery')}
          </Link>
        </p>

        <div className="live-columns">
          <section className="card how-to" aria-labelledby="how-to-title">
            <h2 id="how-to-title">{t('live.how_to.title')}</h2>
            <ol>
              <li>{t('live.how_to.visit')}</li>
              <li>{t('live.how_to.select')}</li>
              <li>{t('live.how_to.direct')}</li>
              <li>{t('live.how_to.private')}</li>
            </ol>
          </section>
          <InsightsCard stats={stats} />
        </div>
      </main>
      <Footer />
    </div>
  );
}
