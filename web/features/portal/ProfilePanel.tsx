import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { AdminRestaurant, UpdateAdminRestaurantBody } from '#common/contract/portal.ts';
import { ApiError } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { NumberField, SelectField, TextField } from '#web/components/ui/Field.tsx';
import {
  childrenLabels,
  childrenPolicies,
  dietExplanations,
  dietLabels,
  dietTypes,
  smokingLabels,
  smokingPolicies,
} from '#common/domain/restaurant-profile.ts';
import { useDismissToast, useToast } from '#web/components/ui/Toast.tsx';
import { adminKeys, uploadHeroPhoto, useUpdateRestaurant } from './api.ts';
import { AdminPanel } from './AdminPanel.tsx';
import { PhotoManager } from './PhotoManager.tsx';

/** URL inputs need absolute addresses; the app's own paths are shown with this origin and stored without it. */
function toAbsolute(url: string | null): string {
  if (!url) return '';
  return url.startsWith('/') && !url.startsWith('//') ? `${window.location.origin}${url}` : url;
}
function toStored(url: string): string {
  const trimmed = url.trim();
  return trimmed.startsWith(`${window.location.origin}/`) ? trimmed.slice(window.location.origin.length) : trimmed;
}

interface ProfileForm {
  name: string;
  neighborhood: string;
  instagramUrl: string;
  website: string;
  heroImageUrl: string;
  cuisines: string;
  address: string;
  directionsUrl: string;
  costForTwo: string;
  diet: string;
  menuUrl: string;
  dressCode: string;
  childrenPolicy: string;
  smokingPolicy: string;
}

function formOf(restaurant: AdminRestaurant): ProfileForm {
  return {
    name: restaurant.name,
    neighborhood: restaurant.neighborhood,
    instagramUrl: restaurant.instagramUrl ?? '',
    website: restaurant.website ?? '',
    heroImageUrl: toAbsolute(restaurant.heroImageUrl),
    cuisines: restaurant.cuisineTags.join(', '),
    address: restaurant.address ?? '',
    directionsUrl: restaurant.directionsUrl ?? '',
    costForTwo: restaurant.costForTwo === null ? '' : String(restaurant.costForTwo),
    diet: restaurant.diet ?? '',
    menuUrl: restaurant.menuUrl ?? '',
    dressCode: restaurant.dressCode ?? '',
    childrenPolicy: restaurant.childrenPolicy ?? '',
    smokingPolicy: restaurant.smokingPolicy ?? '',
  };
}

/** Profile tab: the public profile and the hero photo. On success: the spec's alert, then Dashboard after 1 second. */
export function ProfilePanel({ restaurant, onSaved }: { restaurant: AdminRestaurant; onSaved: () => void }) {
  const toast = useToast();
  const dismissToast = useDismissToast();
  const queryClient = useQueryClient();
  const save = useUpdateRestaurant();
  const [form, setForm] = useState<ProfileForm>(() => formOf(restaurant));
  const [uploading, setUploading] = useState(false);
  const [photoNote, setPhotoNote] = useState('');
  // Which preview failed to load, so a new address gets its own try.
  const [failedPreview, setFailedPreview] = useState<string | null>(null);
  const returnTimer = useRef<number | undefined>(undefined);
  const pickerId = useId();

  useEffect(() => () => window.clearTimeout(returnTimer.current), []);

  const preview = form.heroImageUrl.trim() ? toStored(form.heroImageUrl) : restaurant.heroImageSrc;
  const previewFailed = failedPreview === preview;

  /** A profile field's name, value and change handler. */
  function field(name: keyof ProfileForm) {
    return {
      name,
      value: form[name],
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setForm((current) => ({ ...current, [name]: event.target.value })),
    };
  }

  async function onPhoto(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setUploading(true);
    setPhotoNote('');
    try {
      const { url } = await uploadHeroPhoto(file, restaurant.id);
      setForm((current) => ({ ...current, heroImageUrl: toAbsolute(url) }));
      setPhotoNote('Photo uploaded. It is already live on your public page.');
      // A later success takes away the error it answers.
      dismissToast('photo-upload');
      await queryClient.invalidateQueries({ queryKey: adminKeys.restaurant });
    } catch (error) {
      const reason = error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Unknown error';
      toast(`Failed to upload photo: ${reason}`, 'error', { key: 'photo-upload' });
    } finally {
      setUploading(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending || uploading) return;
    save.mutate(
      {
        name: form.name,
        neighborhood: form.neighborhood,
        instagramUrl: form.instagramUrl.trim(),
        website: form.website.trim(),
        heroImageUrl: toStored(form.heroImageUrl),
        cuisineTags: form.cuisines
          .split(',')
          .map((tag) => tag.trim())
          .filter(Boolean),
        address: form.address,
        directionsUrl: form.directionsUrl.trim(),
        costForTwo: form.costForTwo.trim() === '' ? null : Number(form.costForTwo),
        diet: form.diet as UpdateAdminRestaurantBody['diet'],
        menuUrl: form.menuUrl.trim(),
        dressCode: form.dressCode,
        childrenPolicy: form.childrenPolicy as UpdateAdminRestaurantBody['childrenPolicy'],
        smokingPolicy: form.smokingPolicy as UpdateAdminRestaurantBody['smokingPolicy'],
      },
      {
        onSuccess: (saved) => {
          setForm(formOf(saved));
          toast('Profile updated successfully!', 'success', { key: 'portal-profile' });
          returnTimer.current = window.setTimeout(onSaved, 1000);
        },
        onError: (error) => {
          // The spec's alert; the server's sentence names the field when one was refused.
          const reason = error instanceof ApiError && error.status === 400 && error.serverMessage ? ` (${error.serverMessage})` : '';
          toast(`Failed to update profile${reason}`, 'error', { key: 'portal-profile' });
        },
      },
    );
  }

  return (
    <AdminPanel
      className="profile"
      title="Restaurant Profile"
      aside={
        <Link className="profile__public-link" to={`/r/${restaurant.slug}`} target="_blank" rel="noopener">
          View public page <span aria-hidden="true">↗</span>
        </Link>
      }
    >
      <div className="profile__layout">
        <form className="profile__form" onSubmit={onSubmit} noValidate={false}>
          <TextField label="Name" {...field('name')} autoComplete="organization" />
          <TextField label="Neighborhood" {...field('neighborhood')} placeholder="Indiranagar" />
          <TextField label="Instagram URL" type="url" {...field('instagramUrl')} placeholder="https://instagram.com/yourplace" />
          <TextField label="Website" type="url" {...field('website')} placeholder="https://yourplace.in" />
          <TextField
            label="Hero image URL"
            type="url"
            {...field('heroImageUrl')}
            placeholder="https://… or upload a photo"
            hint="Leave empty to use your cover photo, your uploaded photo or our generated picture."
          />
          <fieldset className="profile__facts">
            <legend>What diners choose by</legend>
            <SelectField
              label="Food"
              {...field('diet')}
              hint={form.diet ? dietExplanations[form.diet as keyof typeof dietExplanations] : 'Pure veg restaurants show up under the “Pure veg” filter.'}
            >
              <option value="">Not stated</option>
              {dietTypes.map((diet) => (
                <option key={diet} value={diet}>
                  {dietLabels[diet]}
                </option>
              ))}
            </SelectField>
            <div className="profile__pair">
              <NumberField
                label="Cost for two (₹)"
                {...field('costForTwo')}
                min={100}
                max={50000}
                step={50}
                placeholder="1200"
                hint="A usual meal for two, with a drink each."
              />
              <TextField label="Cuisines" {...field('cuisines')} placeholder="North Indian, Tandoor" hint="Up to 6, separated by commas." />
            </div>
            <TextField label="Address" {...field('address')} autoComplete="street-address" placeholder="12, 100 Feet Road, Indiranagar, Bengaluru 560038" />
            <TextField
              label="Directions link"
              type="url"
              {...field('directionsUrl')}
              placeholder="https://maps.app.goo.gl/…"
              hint="Leave empty: we link to maps at your pin."
            />
            <TextField
              label="Menu link"
              type="url"
              {...field('menuUrl')}
              placeholder="https://yourplace.in/menu.pdf"
              hint="A PDF or a page with your menu; or add photos of it beside this form."
            />
          </fieldset>
          <fieldset className="profile__facts">
            <legend>House rules</legend>
            <TextField label="Dress code" {...field('dressCode')} placeholder="Smart casual" maxLength={80} />
            <div className="profile__pair">
              <SelectField label="Children" {...field('childrenPolicy')}>
                <option value="">Not stated</option>
                {childrenPolicies.map((policy) => (
                  <option key={policy} value={policy}>
                    {childrenLabels[policy]}
                  </option>
                ))}
              </SelectField>
              <SelectField label="Smoking" {...field('smokingPolicy')}>
                <option value="">Not stated</option>
                {smokingPolicies.map((policy) => (
                  <option key={policy} value={policy}>
                    {smokingLabels[policy]}
                  </option>
                ))}
              </SelectField>
            </div>
            <p className="profile__photo-hint">Opening hours come from your floor’s service hours and show on your page once they are set.</p>
          </fieldset>
          <div className="profile__actions">
            {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus to <body>. */}
            <Button type="submit" aria-disabled={save.isPending || uploading || undefined}>
              {save.isPending ? 'Saving…' : 'Save profile'}
            </Button>
          </div>
        </form>
        <div className="profile__photo">
          <div className="profile__preview">
            {previewFailed ? (
              <div className="profile__preview-missing">This address does not show an image</div>
            ) : (
              <img src={preview} alt={`Hero photo of ${restaurant.name}`} width={640} height={336} onError={() => setFailedPreview(preview)} />
            )}
          </div>
          <input
            id={pickerId}
            className="visually-hidden profile__file"
            type="file"
            accept="image/*"
            disabled={uploading}
            onChange={onPhoto}
            aria-describedby={`${pickerId}-hint`}
          />
          <label className={`btn btn--secondary profile__picker${uploading ? ' profile__picker--busy' : ''}`} htmlFor={pickerId}>
            {uploading ? 'Uploading photo...' : 'Upload a new photo'}
          </label>
          <p className="profile__photo-hint" id={`${pickerId}-hint`}>
            JPEG, PNG or WebP, up to 5 MB. Wide photos (about 1200 × 630) look best.
          </p>
          <p className={uploading ? 'visually-hidden' : 'profile__photo-note'} role="status" aria-live="polite">
            {uploading ? 'Uploading photo...' : photoNote}
          </p>
          <PhotoManager purpose="gallery" photos={restaurant.photos} restaurantName={restaurant.name} />
          <PhotoManager purpose="menu" photos={restaurant.photos} restaurantName={restaurant.name} />
        </div>
      </div>
    </AdminPanel>
  );
}
