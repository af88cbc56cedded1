import type { GalleryItem, WallMessage } from '../../../common/api-types';

/** A guestbook message as a slide of its own: its words and name, never its sound. */
export interface MessageItem extends Omit<WallMessage, 'id'> {
  kind: 'message';
  /** "guestbook:<id>": messages and photos are counted apart, so their ids never meet in the playlist. */
  id: string;
}

/** What the wall shows: a visible photo or video, or a guestbook message. */
export type WallItem = GalleryItem | MessageItem;

export const isMessage = (item: WallItem): item is MessageItem => 'kind' in item && item.kind === 'message';
export const isVideo = (item: WallItem) => !isMessage(item) && item.content_type.startsWith('video/');

export const messageSlideId = (messageId: string) => `guestbook:${messageId}`;
export const messageItem = (m: WallMessage): MessageItem => ({ kind: 'message', id: messageSlideId(m.id), name: m.name, message: m.message, created_at: m.created_at });

/** When it was shared: a photo's upload, a message's writing (the playlist is newest first). */
export const sharedAt = (item: WallItem) => (isMessage(item) ? item.created_at : item.upload_timestamp);
