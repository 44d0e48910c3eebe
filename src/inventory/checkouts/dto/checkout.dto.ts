import { ApiProperty } from '@nestjs/swagger';
import { CHECKOUT_STATUSES, type CheckoutStatus } from './list-checkouts.query.dto.js';

/** A user named in a check-out. */
export class CheckoutPersonDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;
}

/** A check-out of some of an entity's quantity. */
export class CheckoutDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  entityId: string;

  @ApiProperty()
  entityName: string;

  @ApiProperty({ type: 'integer', description: 'How many were checked out' })
  quantity: number;

  @ApiProperty({ type: 'integer', description: 'How many came back so far' })
  returnedQuantity: number;

  @ApiProperty({ type: 'integer', description: 'quantity − returnedQuantity' })
  outstanding: number;

  @ApiProperty({
    type: () => CheckoutPersonDto,
    nullable: true,
    description: 'The member it is lent to; null for an outside borrower or a deleted account',
  })
  member: CheckoutPersonDto | null;

  @ApiProperty({ type: String, nullable: true, description: 'The outside borrower, or null' })
  borrower: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'YYYY-MM-DD, or null' })
  dueOn: string | null;

  @ApiProperty()
  notes: string;

  @ApiProperty({
    enum: CHECKOUT_STATUSES,
    description:
      'returned: all came back; overdue: some is out past dueOn (in the reminders’ time zone); ' +
      'open: otherwise',
  })
  status: CheckoutStatus;

  @ApiProperty({ format: 'date-time' })
  checkedOutAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  returnedAt: string | null;

  @ApiProperty({
    type: () => CheckoutPersonDto,
    nullable: true,
    description: 'Who recorded it; null once that account is deleted',
  })
  checkedOutBy: CheckoutPersonDto | null;
}

/** A page of the group's check-outs. */
export class CheckoutPageDto {
  @ApiProperty({ type: 'integer', description: 'The page, from 1' })
  page: number;

  @ApiProperty({ type: 'integer' })
  pageSize: number;

  @ApiProperty({ type: 'integer', description: 'Matches before paging' })
  total: number;

  @ApiProperty({ type: [CheckoutDto] })
  items: CheckoutDto[];
}
