import { useEffect, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import type { DinerReservation } from '#common/contract/reservations.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { FactList, type Fact } from '#web/components/ui/FactList.tsx';
import { Skeleton } from '#web/components/ui/Feedback.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { DeleteAccount } from '#web/features/accounts/DeleteAccount.tsx';
import { loginPath } from '#web/features/accounts/return-path.ts';
import { useCurrentDiner, useIsSigningOut, useSignOut, useSignOutCount } from '#web/features/accounts/session.ts';
import { useMyReservations } from '#web/features/reservations/api.ts';
import { useCancelFromList } from '#web/features/reservations/CancelReservationDialog.tsx';
import { ChangeBookingDialog } from '#web/features/reservations/ChangeBookingDialog.tsx';
import { MyDeposits } from '#web/features/reservations/MyDeposits.tsx';
import { NoReservationsYet, ReservationList, ReservationSkeletons } from '#web/features/reservations/ReservationCard.tsx';
import { isUpcoming } from '#web/features/reservations/rules.ts';
import { PhoneVerification } from '#web/features/drops/PhoneVerification.tsx';
import { MyStrikes } from '#web/features/strikes/MyStrikes.tsx';
import { useDinerEvents } from '#web/features/live/diner-events.ts';
import { NotificationsCard } from '#web/features/notifications/NotificationsCard.tsx';
import { useOfflineAnswer } from '#web/features/offline/service-worker.ts';
import { formatTime12h, toKolkata } from '#common/domain/time.ts';
import '#web/features/accounts/profile.css';
import '#web/features/drops/drops.css';

const TILES = [
  { to: '/drops', icon: '⏱️', title: 'Drops', text: 'Timed releases of the hardest tables' },
  { to: '/waitlist', icon: '🔔', title: 'Waitlist', text: 'Hear when a table frees up' },
  { to: '/', icon: '🧭', title: 'Discover', text: 'Tables free today near you' },
];

/** /me and /profile: the diner's account, shortcuts, and every reservation. Signed-out visitors go to /login. */
export default function ProfileScreen() {
  const { diner, isSignedIn, isLoading } = useCurrentDiner();
  const signOut = useSignOut();
  const isSigningOut = useIsSigningOut();
  // A table offered from a drop or the waitlist shows up here at once.
  useDinerEvents();

  // A visitor who is not signed in signs in first; a diner who signs out while here goes home.
  const signOutCount = useSignOutCount();
  const [signOutCountAtOpen] = useState(signOutCount);

  useEffect(() => {
    document.title = 'My Profile · Tablefair';
  }, []);

  if (!isSignedIn) return isSigningOut ? null : <Navigate to={signOutCount !== signOutCountAtOpen ? '/' : loginPath('/me')} replace />;

  const displayName = diner?.name?.trim() || diner?.username || '';
  const contacts: Fact[] = [
    ['Email', diner?.email],
    ['Phone', diner?.phone],
    ['Neighbourhood', diner?.preferredHood],
  ];
  // Only what the diner gave: an empty line would read as a missing value.
  const contactFacts = contacts.filter(([, value]) => value);
  return (
    <div className="my-profile container page">
      <header className="my-profile__head">
        <div className="my-profile__who">
          <span className="my-profile__avatar" aria-hidden="true">
            {displayName ? displayName.charAt(0) : ''}
          </span>
          <div>
            <h1 className="my-profile__title">My Profile</h1>
            {isLoading || !diner ? (
              <Skeleton width={180} height={18} />
            ) : (
              <p className="my-profile__name">
                <strong>{displayName}</strong> <span>@{diner.username}</span>
              </p>
            )}
          </div>
        </div>
        <Button variant="secondary" onClick={() => void signOut()} disabled={isSigningOut}>
          Sign Out
        </Button>
      </header>

      {contactFacts.length ? <FactList className="my-profile__facts" facts={contactFacts} /> : null}

      <nav className="my-profile__tiles" aria-label="Shortcuts">
        {TILES.map((tile) => (
          <Link key={tile.to} to={tile.to} className="my-profile-tile">
            <span className="my-profile-tile__icon emoji" aria-hidden="true">
              {tile.icon}
            </span>
            <span className="my-profile-tile__title">{tile.title}</span>
            <span className="my-profile-tile__text">{tile.text}</span>
          </Link>
        ))}
      </nav>

      <section className="my-profile__phone card card--padded" aria-labelledby="my-phone-title">
        <h2 id="my-phone-title">Phone for drops</h2>
        <PhoneVerification intro="Drops are for people, not scripts: a verified phone lets you enter them. One phone verifies one account." />
      </section>

      <MyStrikes />

      <MyReservations />
      <NotificationsCard />
      <MyDeposits />
      <DeleteAccount />
    </div>
  );
}

function MyReservations() {
  const reservations = useMyReservations(true);
  const toast = useToast();
  // Here (not on home) a refused cancel says why, e.g. the 2-hour rule (decision 022).
  const cancel = useCancelFromList({
    onFailed: (error) => {
      console.error('Could not cancel the reservation', error);
      toast(errorMessage(error, { server: 'Could not cancel this reservation', network: 'Could not cancel this reservation. Please try again.' }), 'error', {
        key: 'cancel-reservation',
      });
    },
    onCancelled: (_reservation, money) => toast(money ? `Reservation cancelled. ${money}` : 'Reservation cancelled.', 'info', { key: 'cancel-reservation' }),
  });
  const [changing, setChanging] = useState<DinerReservation | null>(null);
  // A reminder's "Change time or guests" opens here with ?change={id}: the change of that booking opens once it is listed.
  const [search, setSearch] = useSearchParams();
  const asked = search.get('change');
  const shownChange = changing ?? (asked ? (reservations.data?.find((reservation) => reservation.id === asked) ?? null) : null);
  const closeChange = () => {
    setChanging(null);
    if (asked) setSearch({}, { replace: true });
  };
  const now = new Date();
  const offlineAsOf = useOfflineAnswer('/api/reservations');

  let body;
  if (reservations.isPending) {
    body = <ReservationSkeletons count={3} />;
  } else if (reservations.isError) {
    // List failures are only logged (spec section 8); offer a way forward without an error banner.
    body = (
      <div className="my-profile__quiet">
        <p>Your reservations aren’t showing right now.</p>
        <Button variant="secondary" onClick={() => void reservations.refetch()}>
          Refresh
        </Button>
      </div>
    );
  } else if (reservations.data.length === 0) {
    body = <NoReservationsYet className="my-profile__quiet" next="Find a table for tonight and it will show up here." />;
  } else {
    const upcoming = reservations.data.filter((reservation) => isUpcoming(reservation, now));
    const past = reservations.data.filter((reservation) => !isUpcoming(reservation, now));
    const list = (items: DinerReservation[]) => <ReservationList reservations={items} now={now} cancel={cancel} showRequests onChangeBooking={setChanging} />;
    body = (
      <>
        <h3 className="my-profile__group">Upcoming</h3>
        {upcoming.length ? list(upcoming) : <p className="my-profile__none">Nothing coming up. Time to book something?</p>}
        {past.length ? (
          <>
            <h3 className="my-profile__group">Past and cancelled</h3>
            {list(past)}
          </>
        ) : null}
      </>
    );
  }

  return (
    <section className="my-profile__reservations" aria-labelledby="my-reservations-title" aria-busy={reservations.isPending}>
      <h2 id="my-reservations-title">My reservations</h2>
      {offlineAsOf ? (
        <p className="my-profile__offline" role="status">
          Offline — showing your reservations as of {formatTime12h(toKolkata(new Date(offlineAsOf)).time)}
        </p>
      ) : null}
      {body}
      {cancel.dialog}
      {shownChange ? <ChangeBookingDialog reservation={shownChange} onClose={closeChange} /> : null}
    </section>
  );
}
