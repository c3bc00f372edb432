/** The top bar's Happy New Year item shows on Jan 1 and on Feb 9–24 (the Spring Festival season), local time. */
export function isNewYearSeason(date: Date): boolean {
  const month = date.getMonth();
  const day = date.getDate();
  if (month === 0) return day === 1;
  if (month === 1) return day >= 9 && day <= 24;
  return false;
}
