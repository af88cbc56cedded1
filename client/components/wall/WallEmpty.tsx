import { t } from './t';

/** Nothing visible yet: the names (over the cover, when there is one) and a line inviting the first photo. */
export function WallEmpty({ names, cover, className = 'wall-empty' }: { names: string; cover: string | null; className?: string }) {
  return (
    <div className={cover ? `${className} wall-cover` : className}>
      {cover && <img className="wall-cover-image" src={cover} alt="" />}
      {names && <h1>{names}</h1>}
      <p>{t('wall.empty')}</p>
    </div>
  );
}
