/**
 * The islands' one formatting module: money and counts written exactly as the server writes
 * them (`app/src/domain/money.rs`), so a figure an island recomputes reads the same as the one
 * the page was rendered with. The browser tests compare the two.
 */
export type Locale = 'tr' | 'en';

const separators = (locale: Locale) => (locale === 'en' ? { thousands: ',', decimal: '.' } : { thousands: '.', decimal: ',' });

/** "1234567" -> "1.234.567" (tr) / "1,234,567" (en). */
export function groupDigits(digits: string, locale: Locale): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, separators(locale).thousands);
}

/** A count: 1.234 (tr) / 1,234 (en). */
export function formatCount(n: number, locale: Locale): string {
  return (n < 0 ? '-' : '') + groupDigits(String(Math.abs(Math.trunc(n))), locale);
}

/** Kuruş as the server writes money: "100.000 TL", "1.234,50 TL" (tr); "1,234.50 TL" (en). */
export function formatMoney(kurus: bigint, locale: Locale): string {
  const negative = kurus < 0n;
  const abs = negative ? -kurus : kurus;
  const lira = groupDigits((abs / 100n).toString(), locale);
  const rest = abs % 100n;
  const fraction = rest === 0n ? '' : separators(locale).decimal + rest.toString().padStart(2, '0');
  return `${negative ? '-' : ''}${lira}${fraction} TL`;
}

/**
 * Whole lira as typed, with or without thousands separators: dots (and spaces) in Turkish,
 * commas, dots or spaces in English; an optional trailing "TL". null if it is not a number.
 */
export function parseLira(input: string, locale: Locale): bigint | null {
  let text = input.trim();
  while (text.endsWith('TL')) text = text.slice(0, -2).trimEnd();
  const cleaned = text.replace(locale === 'en' ? /[., ]/g : /[. ]/g, '');
  if (!/^\d{1,13}$/.test(cleaned)) return null;
  return BigInt(cleaned);
}
