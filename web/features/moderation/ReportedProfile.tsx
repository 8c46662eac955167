import { useEffect, useState } from 'react';
import type { ModerationMember } from '#common/contract/moderation.ts';
import { readToken } from '#web/api/client.ts';

/**
 * One of a reported member's photos: fetched with the moderator's bearer token (an <img> cannot
 * send it) and shown from memory; a placeholder while it loads or when it cannot be read.
 */
function ModeratorPhoto({ url, alt }: { url: string; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    const token = readToken('moderator');
    fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: controller.signal })
      .then((response) => (response.ok ? response.blob() : Promise.reject(new Error(String(response.status)))))
      .then((blob) => {
        objectUrl = URL.createObjectURL(blob);
        setSrc(objectUrl);
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  if (failed) return <span className="moderation-photo moderation-photo--missing">Photo unavailable</span>;
  if (!src) return <span className="moderation-photo moderation-photo--loading" aria-busy="true" aria-label={`Loading ${alt}`} />;
  return <img className="moderation-photo" src={src} alt={alt} width={120} height={160} />;
}

/** What the reported member shows others (decision 255): photos and the profile's answers, as they wrote them. */
export function ReportedProfile({ member }: { member: ModerationMember }) {
  const { profile } = member;
  const answers = [
    ['Gender', profile.gender],
    ['Profession', profile.profession],
    ['What they want in a partner', profile.whatIWantInPartner],
    ['Why you’d love dating them', profile.whyPartnerWouldLikeMe],
    ['Dreams', profile.dreams],
    ['In five years', profile.fiveYearGoal],
    ['Interests', profile.interests.join(', ')],
  ].filter(([, text]) => text) as [string, string][];
  return (
    <div className="moderation-profile">
      {member.photos.length > 0 ? (
        <ul className="moderation-profile__photos" aria-label={`Photos of ${member.firstName}`}>
          {member.photos.map((photo, index) => (
            <li key={photo.url}>
              <ModeratorPhoto url={photo.url} alt={`${member.firstName}, photo ${index + 1} of ${member.photos.length}`} />
            </li>
          ))}
        </ul>
      ) : null}
      {answers.length > 0 ? (
        <dl className="moderation-profile__answers">
          {answers.map(([label, text]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{text}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="moderation-profile__empty">No profile answers.</p>
      )}
    </div>
  );
}
