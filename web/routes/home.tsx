import { lazy, Suspense, useEffect } from 'react';
import { Link } from 'react-router';
import { toKolkata } from '#common/domain/time.ts';
import { ButtonLink } from '#web/components/ui/Button.tsx';
import { StepList } from '#web/components/ui/StepList.tsx';
import { firstName, useCurrentDiner } from '#web/features/accounts/session.ts';
import { TodayStrip } from '#web/features/restaurants/TodayStrip.tsx';
import '#web/components/layout/home.css';

/** Loaded only for signed-in diners, so the signed-out home stays light. */
const ReservationsPanel = lazy(() => import('#web/features/reservations/ReservationsPanel.tsx').then((module) => ({ default: module.ReservationsPanel })));

function PanelPlaceholder() {
  return (
    <section className="panel" aria-busy="true" aria-label="Your Reservations">
      <div className="panel__head">
        <span className="skeleton" style={{ display: 'block', width: 180, height: 24 }} />
      </div>
      <span className="skeleton" style={{ display: 'block', height: 96, borderRadius: 'var(--radius-lg)' }} />
    </section>
  );
}

const WHY = [
  {
    icon: '⏱️',
    title: 'Fair timed drops',
    text: 'The most wanted tables open at a set time for everyone at once, and a fair queue decides — not the fastest script.',
  },
  { icon: '🔔', title: 'Notify on cancellation', text: 'Join the waitlist for a full evening and hear the moment a table frees up.' },
  {
    icon: '💳',
    title: 'Card holds and deposits',
    text: 'Busy nights can ask for a card hold or a small deposit, which cuts no-shows so more tables stay open for diners.',
  },
  { icon: '🛡️', title: 'No bots, fakes or resale', text: 'Real accounts, limits on holds, and bookings that belong to you — they can’t be scalped or resold.' },
];

const STEPS = [
  { title: 'Pick a time', text: 'Choose a date, your party size and a free time at any restaurant in the city.' },
  { title: 'Hold the table', text: 'It’s yours for a few minutes while you confirm. Nobody else can take it meanwhile.' },
  { title: 'Confirm', text: 'Your booking goes straight to the restaurant. Follow it, or cancel, from My Profile.' },
];

/** Good morning / afternoon / evening, by the clock in Bengaluru. */
function greeting(now = new Date()): string {
  const hour = Number(toKolkata(now).time.slice(0, 2));
  if (hour >= 5 && hour < 12) return 'Good morning';
  if (hour >= 12 && hour < 17) return 'Good afternoon';
  return 'Good evening';
}

/** Home: the hero, the diner's reservations, tables free today, and why Tablefair is fair. */
export default function HomeScreen() {
  const { diner, isSignedIn } = useCurrentDiner();

  useEffect(() => {
    document.title = 'Tablefair · Fair restaurant reservations in Bengaluru';
  }, []);

  const name = firstName(diner);
  return (
    <div className="home">
      <section className="home-hero" aria-labelledby="home-title">
        <div className="container home-hero__inner">
          <div className="home-hero__copy">
            {isSignedIn ? (
              <p className="home-hero__greeting" data-testid="greeting">
                {greeting()}
                {name ? `, ${name}` : ''} <span aria-hidden="true">👋</span>
              </p>
            ) : (
              <p className="home-hero__eyebrow">Bengaluru’s fair reservation service</p>
            )}
            <h1 id="home-title" className="home-hero__title">
              Great tables, <em>fairly</em> shared.
            </h1>
            <p className="home-hero__lede">
              See what’s free across the city right now, hold a table while you decide, and book it in a tap. No bots, no fake accounts, no resale.
            </p>
            <div className="home-hero__actions">
              <ButtonLink to="/explore-tonight" className="home-hero__cta">
                Find a table today
              </ButtonLink>
              <ButtonLink to="/map" variant="secondary">
                <span className="emoji" aria-hidden="true">
                  🗺️
                </span>{' '}
                Open the map
              </ButtonLink>
            </div>
            {isSignedIn ? null : (
              <p className="home-hero__login">
                <Link to="/login">Log in</Link>
                <span>or</span>
                <Link to="/signup">create an account</Link>
              </p>
            )}
          </div>
          <HeroTicket />
        </div>
      </section>

      {isSignedIn ? (
        <div className="container home-panel">
          <Suspense fallback={<PanelPlaceholder />}>
            <ReservationsPanel />
          </Suspense>
        </div>
      ) : null}

      <TodayStrip preferredHood={diner?.preferredHood} />

      <section className="home-why container" aria-labelledby="why-title">
        <p className="home-section__eyebrow">Why Tablefair</p>
        <h2 id="why-title">Booking should be fair to everyone</h2>
        <ul className="home-why__grid">
          {WHY.map((item) => (
            <li key={item.title} className="home-why__item">
              <span className="home-why__icon emoji" aria-hidden="true">
                {item.icon}
              </span>
              <h3>{item.title}</h3>
              <p>{item.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="home-how" aria-labelledby="how-title">
        <div className="container">
          <p className="home-section__eyebrow">How it works</p>
          <h2 id="how-title">From craving to table in three steps</h2>
          <StepList steps={STEPS} classNames={{ list: 'home-how__steps', item: 'home-how__step', number: 'home-how__number' }} />
        </div>
      </section>

      <section className="home-more container" aria-label="More from Tablefair">
        <Link to="/dating" className="home-more__card home-more__card--dating">
          <span className="home-more__eyebrow">Tablefair Dating</span>
          <span className="home-more__title">Real dates. Not swipes.</span>
          <span className="home-more__text">Curated matches who meet over a table, not a chat thread.</span>
          <span className="home-more__go">
            Explore Dating <span aria-hidden="true">→</span>
          </span>
        </Link>
        <Link to="/map" className="home-more__card home-more__card--map">
          <span className="home-more__eyebrow">Live map</span>
          <span className="home-more__title">Every free table, on the map.</span>
          <span className="home-more__text">See restaurants around you and book straight from the pin.</span>
          <span className="home-more__go">
            Open the map <span aria-hidden="true">→</span>
          </span>
        </Link>
      </section>
    </div>
  );
}

/** A drawing of a held table (decorative): what booking here feels like. */
function HeroTicket() {
  return (
    <div className="home-ticket" aria-hidden="true">
      <div className="home-ticket__card">
        <div className="home-ticket__top">
          <span className="home-ticket__emoji emoji">🍛</span>
          <div>
            <span className="home-ticket__name">Your table</span>
            <span className="home-ticket__hood">Indiranagar · tonight</span>
          </div>
          <span className="home-ticket__badge">Held</span>
        </div>
        <div className="home-ticket__times">
          <span>7:00 PM</span>
          <span className="is-chosen">7:30 PM</span>
          <span>8:00 PM</span>
        </div>
        <div className="home-ticket__bar">
          <span className="home-ticket__ring" />
          <span>Held while you confirm</span>
        </div>
      </div>
      <div className="home-ticket__note">
        <span className="emoji">🛡️</span> No bots in the queue
      </div>
    </div>
  );
}
