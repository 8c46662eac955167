import type { ImgHTMLAttributes } from 'react';

/** An uploaded photo: its `srcSet` lists the same picture at growing widths ("url 320w, url 640w, …"), smallest first. */
export interface SizedPhoto {
  srcSet: string;
  width: number;
  height: number;
}

/** The URL of one `srcset` candidate ("url 320w" → "url"). */
const candidateUrl = (candidate: string) => candidate.split(' ')[0]!;

/** The largest rendition of a photo (the last candidate of its `srcSet`), e.g. for a link to the full page. */
export function largestPhotoUrl(photo: Pick<SizedPhoto, 'srcSet'>): string {
  return candidateUrl(photo.srcSet.split(', ').at(-1)!);
}

/**
 * A photo shown `width` CSS pixels wide: the browser picks the rendition from `srcSet`, the smallest one is
 * the fallback `src`, and the height keeps the photo's proportions so the page does not jump as it loads.
 */
export function PhotoAtWidth({
  photo,
  width,
  alt,
  ...img
}: { photo: SizedPhoto; width: number; alt: string } & Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'sizes' | 'width' | 'height' | 'alt'>) {
  return (
    <img
      src={candidateUrl(photo.srcSet.split(', ')[0]!)}
      srcSet={photo.srcSet}
      sizes={`${width}px`}
      width={width}
      height={Math.round((photo.height * width) / photo.width)}
      alt={alt}
      {...img}
    />
  );
}
