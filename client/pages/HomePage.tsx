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
import { coupleNames, settings } from '../state/settings';

function ScheduleCard({ item }: { item: ScheduleItem }) {
  return (
    <li className="card schedule-card">
      <h3>{item.title}</h3>
      <dl className="schedule-facts">
        <div>
          <dt>
            <Calendar aria-hidden="true" size={16} />
            <span className="sr-only">Day</span>
          </dt>
          <dd>{item.day}</dd>
        </div>
        <div>
          <dt>
            <Clock aria-hidden="true" size={16} />
            <span className="sr-only">Time</span>
          </dt>
          <dd>{item.time}</dd>
        </div>
        <div>
          <dt>
            <MapPin aria-hidden="true" size={16} />
            <span className="sr-only">Where</span>
          </dt>
          <dd>
            <span className="schedule-venue">{item.venue}</span>
            <br />
            {item.location}
          </dd>
        </div>
        <div>
          <dt>
            <Shirt aria-hidden="true" size={16} />
            <span className="sr-only">Attire</span>
          </dt>
          <dd>{item.attire}</dd>
        </div>
        <div>
          <dt>
            <Users aria-hidden="true" size={16} />
            <span className="sr-only">Who</span>
          </dt>
          <dd>{item.attendance}</dd>
        </div>
      </dl>
      {item.description && <p className="schedule-description muted">{item.description}</p>}
    </li>
  );
}

export function HomePage() {
  useSignals();
  const s = settings.value;
  return (
    <div className="page">
      <main className="home">
        <header className="hero">
          <div className="container hero-inner">
            <p className="eyebrow">Welcome to the wedding of</p>
            {s ? <h1 className="hero-names">{coupleNames(s)}</h1> : <div className="skeleton hero-skeleton" aria-busy="true" />}
            {s && <p className="lead">{s.welcome_message}</p>}
            <div className="hero-actions">
              <Link href="/live" className="btn">
                Share Your Photos
              </Link>
              <Link href="/gallery" className="btn btn-outline">
                See the Gallery
              </Link>
            </div>
          </div>
        </header>

        <section className="container section" aria-labelledby="schedule-title">
          <h2 id="schedule-title" className="section-title">
            Weekend Schedule
          </h2>
          <ul className="schedule">{s?.schedule.map((item) => <ScheduleCard key={item.title} item={item} />)}</ul>
        </section>

        <section className="container section" aria-labelledby="share-title">
          <div className="card share-card">
            <QrCode className="share-icon" aria-hidden="true" size={44} />
            <h2 id="share-title">Share Your Photos</h2>
            <p>{s?.photo_sharing_message}</p>
            <p className="muted">
              Look for the QR code at your table or in your welcome gift, or open the upload page here. No app needed; photos appear in the gallery once
              the couple approves them.
            </p>
            <div className="hero-actions">
              <Link href="/live" className="btn">
                Upload Photos &amp; Videos
              </Link>
              <Link href="/gallery" className="btn btn-outline">
                View Photo Gallery
              </Link>
            </div>
          </div>
        </section>

        <section className="container section thanks" aria-labelledby="thanks-title">
          <h2 id="thanks-title" className="section-title">
            Thank You
          </h2>
          <p className="lead">{s?.thank_you_message}</p>
        </section>
      </main>
      <Footer />
    </div>
  );
}
