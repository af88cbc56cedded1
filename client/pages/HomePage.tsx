import { useSignals } from '@preact/signals-react/runtime';
import Calendar from 'lucide-react/icons/calendar';
import Clock from 'lucide-react/icons/clock';
import MapPin from 'lucide-react/icons/map-pin';
import QrCode from 'lucide-react/icons/qr-code';
import Shirt from 'lucide-react/icons/shirt';
import Users from 'lucide-react/icons/users';
import { Link } from 'wouter';
import type { ScheduleItem } from '../../common/api-types';
import { Footer } from '../components/Footer';
import { t } from '../i18n';
import { coupleNames, coverUrl, settings } from '../state/settings';

function ScheduleCard({ item }: { item: ScheduleItem }) {
  return (
    <li className="card schedule-card">
      <h3 dir="auto">{item.title}</h3>
      <dl className="schedule-facts">
        <div>
          <dt>
            <Calendar aria-hidden="true" size={16} />
            <span className="sr-only">{t('home.schedule.day')}</span>
          </dt>
          <dd dir="auto">{item.day}</dd>
        </div>
        <div>
          <dt>
            <Clock aria-hidden="true" size={16} />
            <span className="sr-only">{t('home.schedule.time')}</span>
          </dt>
          <dd dir="auto">{item.time}</dd>
        </div>
        <div>
          <dt>
            <MapPin aria-hidden="true" size={16} />
            <span className="sr-only">{t('home.schedule.where')}</span>
          </dt>
          <dd dir="auto">
            <span className="schedule-venue">{item.venue}</span>
            <br />
            {item.location}
          </dd>
        </div>
        <div>
          <dt>
            <Shirt aria-hidden="true" size={16} />
            <span className="sr-only">{t('home.schedule.attire')}</span>
          </dt>
          <dd dir="auto">{item.attire}</dd>
        </div>
        <div>
          <dt>
            <Users aria-hidden="true" size={16} />
            <span className="sr-only">{t('home.schedule.who')}</span>
          </dt>
          <dd dir="auto">{item.attendance}</dd>
        </div>
      </dl>
      {item.description && <p className="schedule-description muted" dir="auto">{item.description}</p>}
    </li>
  );
}

export function HomePage() {
  useSignals();
  const s = settings.value;
  const cover = coverUrl.value;
  return (
    <div className="page">
      <main className="home">
        <header className="hero">
          {cover && <img className="hero-cover" src={cover} alt="" fetchPriority="high" />}
          <div className="container hero-inner">
            <p className="eyebrow">{t('home.eyebrow')}</p>
            {s ? <h1 className="hero-names">{coupleNames(s)}</h1> : <div className="skeleton hero-skeleton" aria-busy="true" />}
            {s && (
              <p className="lead" dir="auto">
                {s.welcome_message}
              </p>
            )}
            <div className="hero-actions">
              <Link href="/live" className="btn">
                {t('home.share_photos')}
              </Link>
              <Link href="/gallery" className="btn btn-outline">
                {t('home.see_gallery')}
              </Link>
            </div>
          </div>
        </header>

        <section className="container section" aria-labelledby="schedule-title">
          <h2 id="schedule-title" className="section-title">
            {t('home.schedule.title')}
          </h2>
          <ul className="schedule">{s?.schedule.map((item) => <ScheduleCard key={item.title} item={item} />)}</ul>
        </section>

        <section className="container section" aria-labelledby="share-title">
          <div className="card share-card">
            <QrCode className="share-icon" aria-hidden="true" size={44} />
            <h2 id="share-title">{t('home.share_photos')}</h2>
            <p dir="auto">{s?.photo_sharing_message}</p>
            <p className="muted">{t('home.share_hint')}</p>
            <div className="hero-actions">
              <Link href="/live" className="btn">
                {t('app.upload_photos_videos')}
              </Link>
              <Link href="/gallery" className="btn btn-outline">
                {t('app.view_gallery')}
              </Link>
            </div>
          </div>
        </section>

        <section className="container section thanks" aria-labelledby="thanks-title">
          <h2 id="thanks-title" className="section-title">
            {t('home.thank_you')}
          </h2>
          <p className="lead" dir="auto">
            {s?.thank_you_message}
          </p>
        </section>
      </main>
      <Footer />
    </div>
  );
}
