"""How the pages and mails write a date in each language (FORMAT_MODULE_PATH): Django's own
formats, plus the named ones the product uses, so a template says ``|date:"WEEKDAY_DATE_FORMAT"``
and German gets its "Donnerstag, 19. März" while English keeps "Thursday 19 March".

Every language module names every format below: a name a module lacks is printed as it is."""

NAMES = (
    "WEEKDAY_DATE_FORMAT",  # Thursday 19 March
    "WEEKDAY_DATETIME_FORMAT",  # Thursday 19 March, 19:00
    "SHORT_WEEKDAY_DATE_FORMAT",  # Thu 19 Mar
    "DAY_MONTH_FORMAT",  # 19 March
    "SHORT_DAY_MONTH_TIME_FORMAT",  # 19 Mar 19:00
    "DAY_MONTH_YEAR_FORMAT",  # 19 March 2027
    "SHORT_DAY_MONTH_YEAR_FORMAT",  # 19 Mar 2027
    "SHORT_MONTH_FORMAT",  # Mar
    "SHORT_MONTH_YEAR_FORMAT",  # Mar 2027
)
