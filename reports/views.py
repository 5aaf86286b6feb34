from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse

from cases.selectors import case_get_for_user
from cases.tabs import render_case_tab


@login_required
def case_reports(request: HttpRequest, case_id: int) -> HttpResponse:
    """Placeholder until the reports tab is built: says what will appear here."""
    case = case_get_for_user(user=request.user, case_id=case_id)
    return render_case_tab(
        request, case=case, tab="reports", template="cases/tab_placeholder.html"
    )
