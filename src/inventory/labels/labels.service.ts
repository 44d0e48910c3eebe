import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { VIEWER_MESSAGE } from '../../identity/auth/guards/group-access.guard.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { formatAssetId } from '../entities/core/asset-id.js';
import { EntitiesService } from '../entities/core/entities.service.js';
import { EntityViewsService } from '../entities/views/entity-views.service.js';
import { LabelPrinterService } from './label-printer.service.js';
import {
  labelLink,
  publicBaseUrl,
  unescapeQrData,
  type LabelTarget,
} from '../entities/core/label-link.js';
import { renderLabel, type LabelLine } from './label-renderer.js';
import { QrDataTooLongError, renderQrCode } from './qr-code.js';

export const ASSET_NOT_FOUND_MESSAGE = 'failed to find asset id';

/** How a label was asked for. */
export interface LabelRequest {
  /** Print it with the configured command instead of returning it. */
  print: boolean;
  /** `<scheme>://<host>` the request came to, for links when no public hostname is configured. */
  origin: string;
}

/** A label as PNG, or word that it was printed. */
export type LabelResult = { printed: false; png: Buffer } | { printed: true };

/** QR codes, and labels of entities with a QR code linking to them in the web UI. */
@Injectable()
export class LabelsService {
  constructor(
    private readonly entities: EntitiesService,
    private readonly views: EntityViewsService,
    private readonly printer: LabelPrinterService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  /** A PNG QR code of `data`, unescaped once more as Homebox does; 422 when it cannot fit. */
  async qrCode(data: string): Promise<Buffer> {
    try {
      return await renderQrCode(unescapeQrData(data));
    } catch (error) {
      if (error instanceof QrDataTooLongError) {
        throw ValidationFailedException.forField('data', 'data is too long for a QR code');
      }
      throw error;
    }
  }

  /**
   * The label of an entity of the caller's group, linking to `/location/<id>` when its type is
   * a location type and to `/item/<id>` otherwise; 404 for an unknown or foreign id.
   */
  async entityLabel(user: AuthUser, id: string, request: LabelRequest): Promise<LabelResult> {
    this.assertMayPrint(user, request);
    const record = await this.entities.findOwned(user, id);
    const path = await this.views.path(user, id);
    const kind = path[path.length - 1]?.type === 'location' ? 'location' : 'item';
    return this.produce(request, { kind, id }, record.name, formatAssetId(record.assetId), path);
  }

  /** The label of the entity with this asset id (the first by name), linking to `/a/<asset id>`. */
  async assetLabel(user: AuthUser, assetId: string, request: LabelRequest): Promise<LabelResult> {
    this.assertMayPrint(user, request);
    const page = await this.views.findByAssetId(user, assetId, undefined, undefined);
    const entity = page.value().items[0];
    if (!entity) throw new NotFoundException(ASSET_NOT_FOUND_MESSAGE);
    const path = await this.views.path(user, entity.id);
    return this.produce(
      request,
      { kind: 'asset', assetId: entity.assetId },
      entity.name,
      entity.assetId,
      path,
    );
  }

  /** Printing is a side effect: writers only, and only when a print command is configured. */
  private assertMayPrint(user: AuthUser, request: LabelRequest): void {
    if (!request.print) return;
    if (user.role === 'viewer') throw new ForbiddenException(VIEWER_MESSAGE);
    this.printer.assertConfigured();
  }

  private async produce(
    request: LabelRequest,
    target: LabelTarget,
    name: string,
    assetId: string,
    path: { name: string }[],
  ): Promise<LabelResult> {
    const settings = this.config.get('labelMaker', { infer: true });
    const hostname = this.config.get('options', { infer: true }).hostname;
    const lines: LabelLine[] = [];
    if (assetId !== '') lines.push({ text: `Asset ID: ${assetId}`, cut: 'end' });
    const ancestors = path.slice(0, -1).map((step) => step.name);
    if (ancestors.length > 0) lines.push({ text: ancestors.join(' / '), cut: 'start' });
    if (settings.additionalInformation.trim() !== '') {
      lines.push({ text: settings.additionalInformation, cut: 'end' });
    }
    const png = await renderLabel(
      { link: labelLink(publicBaseUrl(hostname, request.origin), target), title: name, lines },
      settings,
    );
    if (!request.print) return { printed: false, png };
    await this.printer.print(png);
    return { printed: true };
  }
}
