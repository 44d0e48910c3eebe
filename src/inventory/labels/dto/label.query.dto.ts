import { ApiPropertyOptional } from '@nestjs/swagger';
import { BooleanQuery } from '../../../platform/http/validation/query-values.js';

export class LabelQueryDto {
  @ApiPropertyOptional({
    description:
      'Print the label with the configured print command instead of returning it ' +
      '(not for viewers; `/status` says whether printing is configured)',
  })
  @BooleanQuery()
  print?: boolean;
}
