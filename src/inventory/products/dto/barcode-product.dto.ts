import { ApiProperty } from '@nestjs/swagger';

/** A product found by barcode, ready to be sent as the body of POST /entities. */
export class BarcodeProductItemDto {
  @ApiProperty({
    example: 'Stabilo BOSS ORIGINAL highlighter, yellow',
    description: '1 to 255 characters',
  })
  name: string;

  @ApiProperty({ example: 'Highlighter | 1 piece', description: 'At most 1000 characters' })
  description: string;

  @ApiProperty({ example: 1, description: 'Always 1' })
  quantity: number;

  @ApiProperty({ example: '', description: 'Always "": the caller chooses the location' })
  parentId: string;

  @ApiProperty({ example: '', description: 'Always "": the caller chooses the entity type' })
  entityTypeId: string;

  @ApiProperty({ type: [String], example: [], description: 'Always empty' })
  tagIds: string[];
}

/** One hit of a barcode search (Homebox's BarcodeProduct). */
export class BarcodeProductDto {
  @ApiProperty({
    example: '4006381333931',
    description: 'The code the provider knows the product by',
  })
  barcode: string;

  @ApiProperty({
    example: 'data:image/jpeg;base64,/9j/4AAQSkZJRg…',
    description:
      'The product image as a data URI (JPEG or PNG only, at most 8 MiB), or "" when there is none or it could not be fetched',
  })
  imageBase64: string;

  @ApiProperty({
    example: 'https://images.example.com/4006381333931.jpg',
    description: 'The provider’s image URL, or ""',
  })
  imageURL: string;

  @ApiProperty({ example: 'Stabilo' })
  manufacturer: string;

  @ApiProperty({ example: '70/24', description: '"" when the provider has none' })
  modelNumber: string;

  @ApiProperty({ example: '', description: 'Always ""' })
  notes: string;

  @ApiProperty({ example: 'upcitemdb.com', description: 'upcitemdb.com or openfoodfacts.org' })
  search_engine_name: string;

  @ApiProperty({ type: BarcodeProductItemDto })
  item: BarcodeProductItemDto;
}
