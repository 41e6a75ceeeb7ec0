import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDateTimeFull } from './dateTime';

describe('formatDateTime', () => {
  const date = new Date(2023, 5, 15, 14, 30, 5, 42);

  it('formats in local time', () => {
    expect(formatDateTime(date)).toBe('Jun 15 2023 14:30');
    expect(formatDateTimeFull(date)).toBe('Jun 15 2023 14:30:05.042');
  });

  it('says when the date is invalid', () => {
    expect(formatDateTime(new Date('nope'))).toBe('Invalid date');
  });
});
