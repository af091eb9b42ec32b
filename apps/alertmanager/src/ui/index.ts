export { UiAssets, UI_DIRECTORY } from './ui-assets';
export type { UiAsset } from './ui-assets';
export { UiController } from './ui.controller';
