import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

/** The most characters `GET /qrcode` takes, as in Homebox. */
export const QR_CODE_MAX_DATA_LENGTH = 4296;

export class QrCodeQueryDto {
  @ApiProperty({
    description:
      'Text to encode, at most 4296 characters; it is URL-unescaped once more after the query ' +
      'string is decoded, as Homebox does for its web UI, unless it is not validly escaped',
    example: 'https://trove.example.com/item/0b7f8a3c-5f7e-4d0e-9a55-3f1c2d7f9e11',
    maxLength: QR_CODE_MAX_DATA_LENGTH,
  })
  @IsString({ message: 'data is required' })
  @Length(1, QR_CODE_MAX_DATA_LENGTH, {
    message: `data must be 1 to ${QR_CODE_MAX_DATA_LENGTH} characters long`,
  })
  data: string;
}
