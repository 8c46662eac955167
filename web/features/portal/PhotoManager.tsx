import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ChangeEvent } from 'react';
import { MAX_GALLERY_PHOTOS, MAX_MENU_PHOTOS } from '#common/domain/restaurant-profile.ts';
import { ApiError } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { PhotoAtWidth } from '#web/components/ui/PhotoAtWidth.tsx';
import { useDismissToast, useToast } from '#web/components/ui/Toast.tsx';
import { adminKeys } from './api.ts';
import { makePhotoCover, removeRestaurantPhoto, uploadRestaurantPhoto, type AdminPhoto } from './photos-api.ts';

const WORDS = {
  gallery: {
    title: 'Photos',
    hint: `Up to ${MAX_GALLERY_PHOTOS}: the room, the food, the view. The first is the cover. We make phone-sized copies, so any JPEG, PNG or WebP up to 12 MB works; wide photos look best.`,
    add: 'Add a photo',
    max: MAX_GALLERY_PHOTOS,
  },
  menu: {
    title: 'Menu pages',
    hint: `Up to ${MAX_MENU_PHOTOS} photos of the menu, in order. Or give a link to a PDF menu in the form.`,
    add: 'Add a menu page',
    max: MAX_MENU_PHOTOS,
  },
} as const;

/** The page's photos or menu pages (decision 234): add (sized for phones by the server), remove, put first. */
export function PhotoManager({ purpose, photos, restaurantName }: { purpose: 'gallery' | 'menu'; photos: AdminPhoto[]; restaurantName: string }) {
  const words = WORDS[purpose];
  const toast = useToast();
  const dismissToast = useDismissToast();
  const queryClient = useQueryClient();
  const pickerId = useId();
  const [busy, setBusy] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const mine = photos.filter((photo) => photo.purpose === purpose);
  const isFull = mine.length >= words.max;

  async function run(label: string, work: () => Promise<unknown>, done: string) {
    setBusy(label);
    setNote('');
    try {
      await work();
      await queryClient.invalidateQueries({ queryKey: adminKeys.restaurant });
      setNote(done);
      // A later success takes away the error it answers.
      dismissToast('photo-upload');
    } catch (error) {
      const reason =
        error instanceof ApiError && error.serverMessage
          ? error.serverMessage
          : error instanceof ApiError && error.isNetworkError
            ? 'no connection'
            : 'Unknown error';
      toast(`Failed to upload photo: ${reason}`, 'error', { key: 'photo-upload' });
    } finally {
      setBusy(null);
    }
  }

  function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      toast('Please select an image', 'error', { key: 'photo-upload' });
      return;
    }
    const alt = purpose === 'menu' ? `${restaurantName} menu, page ${mine.length + 1}` : `${restaurantName}, photo ${mine.length + 1}`;
    void run('upload', () => uploadRestaurantPhoto(file, purpose, alt), 'Photo added. It is already on your public page.');
  }

  return (
    <section className="profile-photos" aria-labelledby={`${pickerId}-title`} data-testid={`photos-${purpose}`}>
      <div className="profile-photos__head">
        <h3 id={`${pickerId}-title`} className="profile-photos__title">
          {words.title} <span className="profile-photos__count">{`${mine.length} of ${words.max}`}</span>
        </h3>
      </div>
      <p className="profile-photos__hint" id={`${pickerId}-hint`}>
        {words.hint}
      </p>
      {mine.length === 0 ? (
        <p className="profile-photos__empty">
          {purpose === 'gallery' ? 'No photos yet. Diners choose with their eyes: add the room and two dishes.' : 'No menu pages yet.'}
        </p>
      ) : (
        <ul className={`profile-photos__grid profile-photos__grid--${purpose}`}>
          {mine.map((photo, index) => (
            <li key={photo.id} className="profile-photos__item">
              <PhotoAtWidth photo={photo} width={240} alt={photo.alt} loading="lazy" />
              {index === 0 && purpose === 'gallery' ? <span className="profile-photos__cover">Cover</span> : null}
              <div className="profile-photos__actions">
                {index > 0 ? (
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={busy !== null}
                    onClick={() => void run(photo.id, () => makePhotoCover(photo.id), 'Moved to the front.')}
                  >
                    {purpose === 'gallery' ? 'Make cover' : 'Move first'}
                    <span className="visually-hidden">: {photo.alt}</span>
                  </Button>
                ) : null}
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={busy !== null}
                  onClick={() => void run(photo.id, () => removeRestaurantPhoto(photo.id), 'Photo removed.')}
                >
                  Remove<span className="visually-hidden">: {photo.alt}</span>
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <input
        id={pickerId}
        className="visually-hidden profile__file"
        type="file"
        accept="image/*"
        disabled={busy !== null || isFull}
        onChange={onFile}
        aria-describedby={`${pickerId}-hint`}
        data-testid={`photo-picker-${purpose}`}
      />
      <label className={`btn btn--secondary profile__picker${busy === 'upload' || isFull ? ' profile__picker--busy' : ''}`} htmlFor={pickerId}>
        {busy === 'upload' ? 'Uploading photo...' : isFull ? `${words.max} of ${words.max}: remove one to add another` : words.add}
      </label>
      <p className="profile__photo-note" role="status" aria-live="polite">
        {busy === 'upload' ? 'Uploading photo...' : note}
      </p>
    </section>
  );
}
