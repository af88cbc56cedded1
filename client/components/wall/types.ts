import type { WallItem } from '../../../common/api-types';

export type { WallItem } from '../../../common/api-types';

export const isVideo = (item: WallItem) => item.content_type.startsWith('video/');
