import { t } from './t';
import { ShareCorner } from './ShareCorner';
import { WallEmpty } from './WallEmpty';
import type { Tile } from './tile-board';
import { TileMedia } from './WallVideo';

/** The mosaic's and the magazine's grid: a cell per photo or video (in the magazine the first is the large one), and one for the QR code. */
export function WallTiles({ tiles, size, empty, names }: { tiles: Tile[]; size: number; empty: boolean; names: string }) {
  return (
    <div className="wall-grid" data-tiles={size}>
      {tiles.map((tile, i) => (
        <div className={`wall-tile wall-tile-${i}`} key={tile.key} data-photo-id={tile.item.id}>
          <TileMedia item={tile.item} className="wall-tile-media" />
          {i === 0 && tile.item.uploader_name && (
            <p className="wall-by" data-testid="wall-by">
              {t('wall.by', { name: tile.item.uploader_name })}
            </p>
          )}
        </div>
      ))}
      {empty && tiles.length === 0 && <WallEmpty names={names} cover={null} className="wall-tile wall-tile-0 wall-empty" />}
      <div className="wall-tile wall-share-cell">
        <ShareCorner />
      </div>
    </div>
  );
}
