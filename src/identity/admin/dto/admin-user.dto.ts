import { ApiProperty } from '@nestjs/swagger';

/** A user of the instance, as an instance administrator sees them. */
export class AdminUserDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  email: string;

  @ApiProperty({
    description: 'The account is disabled: it cannot sign in and every credential of it is refused',
  })
  disabled: boolean;

  @ApiProperty({
    description: 'An instance administrator (TROVE_ADMIN_EMAILS, or a provider group at sign-in)',
  })
  instanceAdmin: boolean;

  @ApiProperty({ type: 'integer', description: 'How many groups the user belongs to' })
  groups: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class AdminUserPageDto {
  @ApiProperty({ type: 'integer', description: 'The page, from 1' })
  page: number;

  @ApiProperty({ type: 'integer' })
  pageSize: number;

  @ApiProperty({ type: 'integer', description: 'Matches before paging' })
  total: number;

  @ApiProperty({ type: [AdminUserDto] })
  items: AdminUserDto[];
}
