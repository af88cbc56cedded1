import type { Module } from '../http/module.js';
import { shotsRouter } from './camera.routes.js';
import type { Shots } from './shots.js';

export interface CameraDeps {
  shots: Shots;
}

/** The camera's server side: the guests' shots left (the disposable-camera game). */
export function createCameraModule(deps: CameraDeps): Module {
  return {
    name: 'camera',
    publicApi: [shotsRouter(deps.shots)],
  };
}
