import { useEffect, useId, useMemo, useRef, type ChangeEvent } from 'react';
import { DATING_PHOTO_COUNT } from '#common/domain/dating-profile.ts';
import { useToast } from '#web/components/ui/Toast.tsx';
import { photoProblem } from './signup-form.ts';
import { GroupError, GroupHeading } from './GroupChrome.tsx';

/** Object URLs for previews, revoked when the files change or the picker goes away. */
function usePreviews(files: File[]): string[] {
  const urls = useMemo(() => files.map((file) => URL.createObjectURL(file)), [files]);
  useEffect(() => () => urls.forEach((url) => URL.revokeObjectURL(url)), [urls]);
  return urls;
}

/**
 * Exactly three photos: three slots with previews, each removable. A file without an image
 * type raises the spec's alert 'Please select an image' and is left out.
 */
export function PhotoPicker({ photos, onChange, error }: { photos: File[]; onChange(files: File[]): void; error?: string | null }) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const toast = useToast();
  const previews = usePreviews(photos);
  const remaining = DATING_PHOTO_COUNT - photos.length;

  function onPick(event: ChangeEvent<HTMLInputElement>) {
    const chosen = Array.from(event.target.files ?? []);
    event.target.value = '';
    const accepted: File[] = [];
    for (const file of chosen) {
      const problem = photoProblem(file);
      if (problem) toast(problem, 'error');
      else accepted.push(file);
    }
    if (accepted.length > remaining) toast(`Only ${DATING_PHOTO_COUNT} photos: the extra ones were left out`, 'info');
    if (accepted.length) onChange([...photos, ...accepted.slice(0, Math.max(0, remaining))]);
  }

  return (
    <div className="d-group" data-field="photos">
      <GroupHeading id={id} label="Your photos" hint="Exactly 3: JPEG, PNG or WebP, up to 8 MB each. The first one leads your profile." />
      <input
        ref={inputRef}
        id={`${id}-input`}
        className="visually-hidden d-photos__input"
        type="file"
        accept="image/jpeg,image/png,image/webp"
        multiple
        disabled={remaining === 0}
        onChange={onPick}
        aria-labelledby={`${id}-label`}
        aria-describedby={[`${id}-hint`, `${id}-count`, error ? `${id}-error` : ''].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
      />
      <ol className="d-photos">
        {Array.from({ length: DATING_PHOTO_COUNT }, (_, index) => {
          const file = photos[index];
          if (file) {
            return (
              <li key={`${file.name}-${index}`} className="d-photo">
                <img src={previews[index]} alt={`Photo ${index + 1} of ${DATING_PHOTO_COUNT}`} className="d-photo__img" width={300} height={400} />
                {index === 0 ? <span className="d-photo__badge">Main</span> : null}
                <button
                  type="button"
                  className="d-photo__remove"
                  aria-label={`Remove photo ${index + 1}`}
                  onClick={() => {
                    onChange(photos.filter((_, i) => i !== index));
                    // The picker is enabled again once the photo is gone: the focus waits a frame for that.
                    window.requestAnimationFrame(() => inputRef.current?.focus());
                  }}
                >
                  ×
                </button>
              </li>
            );
          }
          return (
            <li key={`empty-${index}`} className={`d-photo d-photo--empty${index === photos.length ? ' d-photo--next' : ''}`}>
              <label htmlFor={`${id}-input`} className="d-photo__add">
                <span className="d-photo__plus" aria-hidden="true">
                  +
                </span>
                <span>{index === photos.length ? 'Add photo' : `Photo ${index + 1}`}</span>
              </label>
            </li>
          );
        })}
      </ol>
      <span className="d-photos__count" id={`${id}-count`} aria-live="polite">
        {photos.length} of {DATING_PHOTO_COUNT} added
      </span>
      <GroupError id={id} error={error} />
    </div>
  );
}
