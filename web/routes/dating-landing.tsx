import { Link } from 'react-router';
import { datingNeighbourhoods } from '#common/domain/dating-profile.ts';
import { DatingAuthLink, DatingPage } from '#web/features/dating/DatingLayout.tsx';
import { StepList } from '#web/components/ui/StepList.tsx';

const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;
/** Small line icons for the feature cards (decorative). */
const ICONS = {
  Curated: <path {...stroke} d="M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8zM18 15l.8 2.2L21 18l-2.2.8L18 21l-.8-2.2L15 18l2.2-.8z" />,
  IRL: <path {...stroke} d="M4 9h13v5a5 5 0 0 1-5 5H9a5 5 0 0 1-5-5zM17 10h1.5a2.5 2.5 0 0 1 0 5H17M8 3v3M12 3v3" />,
  Commitment: <path {...stroke} d="M7 5h11M7 9h11M7 5c4 0 6 1.5 6 4s-2 4-6 4h-.5L14 20" />,
  Neighborhoods: <path {...stroke} d="M12 21s-7-6.2-7-11.5A7 7 0 0 1 19 9.5C19 14.8 12 21 12 21zM12 12a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z" />,
  Intent: <path {...stroke} d="M12 20s-7.5-4.6-7.5-10A4.5 4.5 0 0 1 12 7a4.5 4.5 0 0 1 7.5 3c0 5.4-7.5 10-7.5 10z" />,
  Clarity: <path {...stroke} d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 7v5l3 2" />,
} as const;

/** The six promises of the dating section (spec section 2), each a card. */
const FEATURES = [
  {
    title: 'Curated',
    text: 'A few thoughtful matches, picked for what you both want. Not an endless feed to swipe through.',
  },
  {
    title: 'IRL',
    text: 'Every match is a real first date at a real venue. No texting marathons: the app coordinates the when and where.',
  },
  {
    title: 'Commitment',
    text: 'A small venue deposit holds the date and turns into credit at the table. If your date flakes, it is paid to you.',
  },
  {
    title: 'Neighborhoods',
    text: 'Dates close to where you live and work, so meeting up is easy on a weeknight.',
  },
  {
    title: 'Intent',
    text: 'Everyone here is looking for something serious, and says what that is up front.',
  },
  {
    title: 'Clarity',
    text: 'You see the place, the time and the budget before you say yes. No guessing, no ghosting.',
  },
] as const;

const TRUST = ['Neighborhood-first', 'Your deposit becomes credit at the table', 'Privacy and respect, always'];

const STEPS = [
  { title: 'Tell us who you are', text: 'Three photos, what you love to eat, and the first date you would actually enjoy.' },
  { title: 'Get a curated match', text: 'Someone nearby who wants the same things, with a venue and a time that suit you both.' },
  { title: 'Show up and enjoy it', text: 'Your deposit turns into credit at the table. If your date does not turn up, it is paid to you.' },
] as const;

export default function DatingLanding() {
  return (
    <DatingPage
      title="Dinner dates in Bengaluru · Tablefair Dating"
      header={
        <>
          <DatingAuthLink to="login" />
          <DatingAuthLink to="signup" primary />
        </>
      }
    >
      <section className="d-hero" aria-labelledby="dating-headline">
        <div className="d-container d-hero__inner">
          <div className="d-hero__copy">
            <p className="d-eyebrow">Tablefair Dating · Bengaluru</p>
            <h1 id="dating-headline" className="d-hero__title">
              Real dates. Not swipes.
            </h1>
            <p className="d-hero__lead">
              Curated matches for people with serious intent. We set up a real first date at a venue near you, and your small deposit becomes credit at the
              table. If your date flakes, the deposit is paid to you.
            </p>
            <div className="d-hero__actions">
              <Link to="/dating/signup" className="btn d-btn--primary d-btn--lg">
                Create your account
              </Link>
              <Link to="/dating/login" className="btn d-btn--on-dark d-btn--lg">
                Log in
              </Link>
            </div>
            <p className="d-hero__note">You never message each other: the app handles the coordination.</p>
          </div>
          <div className="d-hero__visual" aria-hidden="true">
            <div className="d-ticket">
              <div className="d-ticket__top">
                <span className="d-ticket__kicker">Your first date</span>
                <span className="d-ticket__status">Confirmed</span>
              </div>
              <div className="d-ticket__title">Coffee in Indiranagar</div>
              <div className="d-ticket__meta">
                <span>Thu · 7:30 PM</span>
                <span>₹500–1,000</span>
              </div>
              <div className="d-ticket__row">
                <span className="d-ticket__avatar d-ticket__avatar--a" />
                <span className="d-ticket__avatar d-ticket__avatar--b" />
                <span className="d-ticket__line">Deposit held · becomes credit at the table</span>
              </div>
            </div>
            <div className="d-ticket d-ticket--back">
              <div className="d-ticket__title">Live music, Koramangala</div>
              <div className="d-ticket__meta">
                <span>Sat · 8:00 PM</span>
              </div>
            </div>
          </div>
        </div>
      </section>

      <section className="d-section" aria-labelledby="dating-features">
        <div className="d-container">
          <h2 id="dating-features" className="d-section__title">
            Dating that respects your evening
          </h2>
          <ul className="d-features">
            {FEATURES.map((feature) => (
              <li key={feature.title} className="d-feature">
                <span className="d-feature__icon" aria-hidden="true">
                  <svg viewBox="0 0 24 24">{ICONS[feature.title]}</svg>
                </span>
                <h3 className="d-feature__title">{feature.title}</h3>
                <p className="d-feature__text">{feature.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="d-section d-section--soft" aria-labelledby="dating-hoods">
        <div className="d-container d-hoods">
          <div>
            <h2 id="dating-hoods" className="d-section__title">
              Built around your neighbourhood
            </h2>
            <p className="d-muted">First dates happen close to home, at places that know how to host them.</p>
          </div>
          <ul className="d-hoods__list">
            {datingNeighbourhoods.map((hood) => (
              <li key={hood} className="d-hood">
                {hood}
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="d-section" aria-labelledby="dating-how">
        <div className="d-container">
          <h2 id="dating-how" className="d-section__title">
            How it works
          </h2>
          <StepList steps={STEPS} classNames={{ list: 'd-steps', item: 'd-step', number: 'd-step__number', title: 'd-step__title' }} />
        </div>
      </section>

      <section className="d-trust" aria-label="Our promises">
        <div className="d-container">
          <ul className="d-trust__list">
            {TRUST.map((item) => (
              <li key={item} className="d-trust__item">
                <span className="d-trust__dot" aria-hidden="true" />
                {item}
              </li>
            ))}
          </ul>
          <div className="d-trust__cta">
            <Link to="/dating/signup" className="btn d-btn--primary d-btn--lg">
              Sign up
            </Link>
            <span className="d-muted">
              Already a member? <Link to="/dating/login">Log in</Link>
            </span>
          </div>
        </div>
      </section>
    </DatingPage>
  );
}
