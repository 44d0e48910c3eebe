import { Module } from '@nestjs/common';
import { WebUi } from './web-ui.js';

/**
 * Homebox's web UI at Trove's own address, when TROVE_WEB_UI_DIR names a build of it; Trove's own
 * pages are `web/pages/` and `web/console/`.
 */
@Module({
  providers: [WebUi],
  exports: [WebUi],
})
export class WebUiModule {}
