// Every sentence of the face search that a person reads from the server, in one place, so that
// moving them into the language catalogues is a mechanical step.
export const FACE_TEXTS = {
  off: 'Finding photos by face is not turned on for this wedding.',
  consentRequired: 'Please tick the box to agree before we look for your photos.',
  noFace: 'We could not find a face in this photo. Please try another one where your face is clearly visible.',
  noSelfie: 'Please add a photo of your face.',
  wrongType: 'Please use a photo (JPEG, PNG, WebP or HEIC).',
  tooLarge: 'This photo is too large. Please use one under 15 MB.',
  notSearched: 'This browser has not looked for photos yet.',
  unreadable: 'We could not read this photo. Please try another one.',
} as const;
