import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { DatingProfile } from '#common/contract/dating.ts';
import {
  cuisineChoices,
  dateBudgetChoices,
  dietChoices,
  drinkingChoices,
  firstDateChoices,
  labelOf,
  physicalActivityChoices,
  smokingChoices,
} from '#common/domain/dating-profile.ts';
import { Alert, Skeleton } from '#web/components/ui/Feedback.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { DatingRequestError, datingApi, datingErrorMessage, datingUrl } from '#web/features/dating/api.ts';
import { DatingPage } from '#web/features/dating/DatingLayout.tsx';
import { DatingNotificationSettings } from '#web/features/dating/DatingNotifications.tsx';
import { forgetThisBrowserForDating } from '#web/features/dating/push.ts';
import { datingKeys } from '#web/features/dating/keys.ts';
import { Plans } from '#web/features/dating/Plans.tsx';
import { Preferences } from '#web/features/dating/Preferences.tsx';
import { Suggestions } from '#web/features/dating/Suggestions.tsx';

/** The signed-in person's home in the dating section: their dates, today's suggestions, their preferences and their profile. */
export default function DatingApp() {
  const me = useQuery({
    queryKey: datingKeys.me,
    queryFn: ({ signal }) => datingApi.me(signal),
    retry: (count, error) => !(error instanceof DatingRequestError && error.status === 401) && count < 1,
  });
  const isSignedOut = me.error instanceof DatingRequestError && me.error.status === 401;

  useEffect(() => {
    if (isSignedOut) window.location.replace('/dating/login');
  }, [isSignedOut]);

  return (
    <DatingPage title="Your dating profile · Tablefair Dating" className="dating--app" isMember header={me.data ? <LogOutButton name={me.data.name} /> : null}>
      {me.data ? (
        <Profile profile={me.data} />
      ) : me.isError && !isSignedOut ? (
        <div className="d-container d-app__state">
          <Alert tone="error" title="We could not load your profile">
            {datingErrorMessage(me.error, 'Please check your connection and try again.')}
          </Alert>
          <button type="button" className="btn d-btn--primary" onClick={() => me.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <ProfileSkeleton />
      )}
    </DatingPage>
  );
}

function LogOutButton({ name }: { name: string }) {
  const [isBusy, setBusy] = useState(false);
  const toast = useToast();
  async function logOut() {
    setBusy(true);
    try {
      // This browser stops receiving the leaving member's date-plan pushes (decision 219).
      await forgetThisBrowserForDating().catch(() => null);
      await datingApi.logout();
      window.location.assign('/dating');
    } catch (error) {
      toast(datingErrorMessage(error, 'Could not log out. Please try again.'), 'error');
      setBusy(false);
    }
  }
  return (
    <>
      <span className="d-header__who">Hi, {name.split(' ')[0]}</span>
      <button type="button" className="btn d-btn--ghost" onClick={logOut} disabled={isBusy}>
        {isBusy ? 'Logging out...' : 'Log out'}
      </button>
    </>
  );
}

function ProfileSkeleton() {
  return (
    <div className="d-container d-app" aria-busy="true" aria-label="Loading your profile">
      <div className="d-app__hero">
        <div className="d-mosaic">
          <Skeleton className="d-mosaic__item d-mosaic__item--lead" height="100%" radius="var(--radius-lg)" />
          <Skeleton className="d-mosaic__item" height="100%" radius="var(--radius-lg)" />
          <Skeleton className="d-mosaic__item" height="100%" radius="var(--radius-lg)" />
        </div>
        <div className="d-app__intro">
          <Skeleton width="60%" height={36} />
          <Skeleton width="40%" height={18} />
          <Skeleton width="100%" height={120} radius="var(--radius-lg)" />
        </div>
      </div>
    </div>
  );
}

function Answer({ question, answer }: { question: string; answer: string }) {
  return (
    <div className="d-answer">
      <dt className="d-answer__q">{question}</dt>
      <dd className="d-answer__a">{answer || <span className="d-muted">Not answered yet</span>}</dd>
    </div>
  );
}

/** A subheading and the member's own words as outlined pills; nothing at all when there are none. */
function TitledPills({ title, values }: { title: string; values: string[] }) {
  if (values.length === 0) return null;
  return (
    <>
      <h3 className="d-app__sub">{title}</h3>
      <ul className="d-pills" aria-label={title}>
        {values.map((value) => (
          <li key={value} className="d-pill d-pill--outline">
            {value}
          </li>
        ))}
      </ul>
    </>
  );
}

function Profile({ profile }: { profile: DatingProfile }) {
  const hasPreferences = profile.neighbourhoods.length > 0 && profile.freeEvenings.length > 0;
  const photos = [...profile.photos].sort((a, b) => a.sortOrder - b.sortOrder);
  const lifestyle = [
    ['Active', labelOf(physicalActivityChoices, profile.physicalActivity)],
    ['Diet', labelOf(dietChoices, profile.diet)],
    ['Drinking', labelOf(drinkingChoices, profile.drinking)],
    ['Smoking', labelOf(smokingChoices, profile.smoking)],
  ].filter(([, value]) => value);

  return (
    <div className="d-container d-app">
      <section className="d-app__hero" aria-labelledby="profile-name">
        <ul className="d-mosaic" aria-label="Your photos">
          {photos.map((photo, index) => (
            <li key={photo.url} className={index === 0 ? 'd-mosaic__item d-mosaic__item--lead' : 'd-mosaic__item'}>
              <img
                src={datingUrl(photo.url)}
                alt={`${profile.name}, photo ${index + 1} of ${photos.length}`}
                width={600}
                height={800}
                loading={index === 0 ? 'eager' : 'lazy'}
              />
            </li>
          ))}
        </ul>

        <div className="d-app__intro">
          <p className="d-eyebrow d-eyebrow--plum">Your profile</p>
          <h1 id="profile-name" className="d-app__name">
            {profile.name}, {profile.age}
          </h1>
          <p className="d-app__facts">
            {[profile.profession, labelOf(dateBudgetChoices, profile.dateBudget) + ' per date'].filter(Boolean).join(' · ')}
            {profile.instagramHandle ? (
              <>
                {' · '}
                <a href={`https://instagram.com/${profile.instagramHandle}`} target="_blank" rel="noreferrer noopener">
                  @{profile.instagramHandle}
                </a>
              </>
            ) : null}
          </p>
        </div>
      </section>

      <Plans />

      <Suggestions hasPreferences={hasPreferences} />

      <div className="d-app__grid">
        <section className="d-card d-app__card" aria-labelledby="answers-title">
          <h2 id="answers-title" className="d-app__card-title">
            In your words
          </h2>
          <dl className="d-answers">
            <Answer question="What I want in a partner" answer={profile.whatIWantInPartner} />
            <Answer question="Why you'd love dating me" answer={profile.whyPartnerWouldLikeMe} />
            <Answer question="My dreams" answer={profile.dreams} />
            <Answer question="In five years" answer={profile.fiveYearGoal} />
          </dl>
        </section>

        <section className="d-card d-app__card" aria-labelledby="tastes-title">
          <h2 id="tastes-title" className="d-app__card-title">
            First dates you'd enjoy
          </h2>
          <ul className="d-pills" aria-label="Preferred first dates">
            {profile.firstDateTypes.map((value) => (
              <li key={value} className="d-pill d-pill--rose">
                {labelOf(firstDateChoices, value)}
              </li>
            ))}
          </ul>
          <h3 className="d-app__sub">Favourite cuisines</h3>
          <ul className="d-pills" aria-label="Favourite cuisines">
            {profile.cuisines.map((value) => (
              <li key={value} className="d-pill">
                {labelOf(cuisineChoices, value)}
              </li>
            ))}
          </ul>
          <TitledPills title="Interests" values={profile.interests} />
          <TitledPills title="Languages" values={profile.languages} />
        </section>

        <section className="d-card d-app__card" aria-labelledby="lifestyle-title">
          <h2 id="lifestyle-title" className="d-app__card-title">
            Lifestyle
          </h2>
          <dl className="d-facts">
            {lifestyle.map(([label, value]) => (
              <div key={label} className="d-fact">
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
            <div className="d-fact">
              <dt>Date budget</dt>
              <dd>{labelOf(dateBudgetChoices, profile.dateBudget)}</dd>
            </div>
          </dl>
        </section>
      </div>

      <Preferences profile={profile} />

      <DatingNotificationSettings />
    </div>
  );
}
